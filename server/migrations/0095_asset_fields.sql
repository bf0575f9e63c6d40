-- Files uploaded through a resource's file()/image() field (POST v1/resources/assets?field=<resource>.<field>)
-- remember that field: whoever may write that resource may upload them, and whoever may read it may download
-- them (with ?field=), without the Files page's permission. A file uploaded on the Files page has no row.
CREATE TABLE "asset_fields" (
  "asset_id" bigint PRIMARY KEY REFERENCES "assets" ("id") ON DELETE CASCADE,
  "field" varchar(200) NOT NULL,
  "created_by" bigint
);
