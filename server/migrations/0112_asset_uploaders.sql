-- Issue 27, item 8 (the avatar field): a profile may name as its avatar only a file its
-- user uploaded, so the field tells nobody whether someone else's file id exists. Every upload (Files page
-- or a resource's file field) records its uploader here; files uploaded before this migration get the
-- uploader their audit row names.
CREATE TABLE "asset_uploaders" (
  "asset_id" bigint PRIMARY KEY REFERENCES "assets" ("id") ON DELETE CASCADE,
  "user_id" bigint NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "asset_uploaders_user_id_idx" ON "asset_uploaders" ("user_id");

INSERT INTO "asset_uploaders" ("asset_id", "user_id")
SELECT DISTINCT ON (a.id) a.id, l.operator_id
  FROM "assets" a
  JOIN "activity_logs" l
    ON l.subject_type = 'assets' AND l.subject_id = a.id::text AND l.action = 'assets.create'
 WHERE l.operator_id IS NOT NULL
 ORDER BY a.id, l.id
ON CONFLICT DO NOTHING;
