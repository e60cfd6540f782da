-- Phone numbers are unique among live accounts (contract §4): a partial unique index, beyond what
-- schema.prisma can express. It replaces the plain lookup index on the same rows.
--
-- Existing duplicates would make the index fail, so each number shared by several live accounts is
-- first kept by one of them: the account that verified it (the earliest verification), otherwise
-- the oldest account. The others lose the number (phone and its verification cleared); their
-- holders can set and verify a number again. Writers wait for the whole migration, so no duplicate
-- can appear between the clean-up and the index.
LOCK TABLE "users" IN SHARE ROW EXCLUSIVE MODE;

WITH "ranked" AS (
    SELECT "id", row_number() OVER (PARTITION BY "phone" ORDER BY "phone_verified_at" ASC NULLS LAST, "id" ASC) AS "rank"
      FROM "users"
     WHERE "deleted_at" IS NULL AND "phone" IS NOT NULL
)
UPDATE "users" SET "phone" = NULL, "phone_verified_at" = NULL, "updated_at" = CURRENT_TIMESTAMP
  FROM "ranked"
 WHERE "users"."id" = "ranked"."id" AND "ranked"."rank" > 1;

DROP INDEX "users_phone_live_idx";
CREATE UNIQUE INDEX "users_phone_live_key" ON "users" ("phone") WHERE "deleted_at" IS NULL AND "phone" IS NOT NULL;
