-- Resource "users": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "users_username_trgm" ON "users" USING gin ("username" gin_trgm_ops);
CREATE INDEX "users_name_trgm" ON "users" USING gin ("name" gin_trgm_ops);
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);
CREATE INDEX "users_phone_trgm" ON "users" USING gin ("phone" gin_trgm_ops);
