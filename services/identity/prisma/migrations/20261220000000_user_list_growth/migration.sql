-- GET /api/users at any size (issue 36, docs/decisions/0019): a search reads a trigram index
-- instead of every row, and a page reads its count instead of counting every row.

-- pg_trgm lives in `public`, which every database has: an extension exists once per database, and
-- in a service's own schema it would be found by no other schema and dropped with that schema.
-- Two schemas migrating at once in one database (tests) would both create it; the lock makes the
-- second wait and then find it.
SELECT pg_advisory_xact_lock(hashtext('create extension pg_trgm'));
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- `search` is a case-insensitive substring of name or email among live accounts
-- (`name ILIKE '%x%' OR email ILIKE '%x%'`): one BitmapOr over these two indexes. Without
-- fastupdate: accounts are written seldom and searched often, and a pending list (every account
-- written since the last vacuum, read row by row by each search) would make a search's cost
-- depend on when autovacuum last ran; a write pays its index entries at once instead.
CREATE INDEX "users_name_trgm_live_idx" ON "users" USING gin ("name" public.gin_trgm_ops) WITH (fastupdate = off) WHERE "deleted_at" IS NULL;
CREATE INDEX "users_email_trgm_live_idx" ON "users" USING gin ("email" public.gin_trgm_ops) WITH (fastupdate = off) WHERE "deleted_at" IS NULL;

-- The `count` of the unfiltered list: the live accounts, moved by every statement that changes them.
CREATE TABLE "live_user_count" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "live" INTEGER NOT NULL,

    CONSTRAINT "live_user_count_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "live_user_count_one_row" CHECK ("id")
);

-- Inserts and deletes per statement, from their transition tables: a bulk insert moves the count
-- once. Updates per row, and only those that change deleted_at (a soft delete): the updates of
-- logins and profile edits neither run it nor wait on the count's row.
-- The search path is this schema's, as the migration runs, whoever fires it.
CREATE FUNCTION "live_user_count_apply"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  delta integer;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "live_user_count" SET "live" = 0 WHERE "id";
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    delta := (NEW.deleted_at IS NULL)::integer - (OLD.deleted_at IS NULL)::integer;
  ELSIF TG_OP = 'INSERT' THEN
    delta := (SELECT count(*) FROM new_rows WHERE deleted_at IS NULL);
  ELSE
    delta := -(SELECT count(*) FROM old_rows WHERE deleted_at IS NULL);
  END IF;
  IF delta <> 0 THEN
    UPDATE "live_user_count" SET "live" = "live" + delta WHERE "id";
  END IF;
  RETURN NULL;
END $$;

-- No write to users between the count below and the triggers that keep it.
LOCK TABLE "users" IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO "live_user_count" ("id", "live") SELECT true, count(*) FROM "users" WHERE "deleted_at" IS NULL;

CREATE TRIGGER "live_user_count_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "live_user_count_apply"();
CREATE TRIGGER "live_user_count_update" AFTER UPDATE OF "deleted_at" ON "users"
    FOR EACH ROW WHEN (OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at") EXECUTE FUNCTION "live_user_count_apply"();
CREATE TRIGGER "live_user_count_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "live_user_count_apply"();
CREATE TRIGGER "live_user_count_truncate" AFTER TRUNCATE ON "users"
    FOR EACH STATEMENT EXECUTE FUNCTION "live_user_count_apply"();
