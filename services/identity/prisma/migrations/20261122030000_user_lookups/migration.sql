-- Not expressible in schema.prisma: lookups of live accounts. Emails are stored lower-cased, so the
-- login and forgot lookups compare with plain equality and use this index.
CREATE INDEX "users_email_live_idx" ON "users" ("email") WHERE "deleted_at" IS NULL;
CREATE INDEX "users_phone_live_idx" ON "users" ("phone") WHERE "deleted_at" IS NULL AND "phone" IS NOT NULL;
