-- A login opens its session in one statement (login is a hot path; SessionsRepository.open): the
-- account's logins lock (contract §10's cap: the live sessions counted after it are all there are),
-- then, in a statement whose snapshot is taken after that lock, the session and its first refresh
-- token, the account's live sessions beyond the `p_keep` most recently used others revoked, and the
-- device remembered among the account's known ones (no deviceId is the empty one). The rules'
-- numbers and names come from the caller, which runs it in the login's transaction.
CREATE FUNCTION "open_login_session"(
    p_id UUID,
    p_user_id INTEGER,
    p_surface VARCHAR,
    p_device_id VARCHAR,
    p_device_type VARCHAR,
    p_device_name VARCHAR,
    p_ip VARCHAR,
    p_user_agent VARCHAR,
    p_expires_at TIMESTAMPTZ,
    p_amr TEXT[],
    p_refresh_token_hash VARCHAR,
    p_keep INTEGER,
    p_reason VARCHAR,
    p_now TIMESTAMPTZ
) RETURNS TABLE ("ended" TEXT[], "device_is_new" BOOLEAN)
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
#variable_conflict use_column
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('identity.sessions.logins'), p_user_id);
    RETURN QUERY
    WITH "created" AS (
        INSERT INTO "sessions" ("id", "user_id", "surface", "device_id", "device_type", "device_name", "ip", "user_agent", "expires_at", "amr")
        VALUES (p_id, p_user_id, p_surface, p_device_id, p_device_type, p_device_name, p_ip, p_user_agent, p_expires_at, p_amr)
        RETURNING "id"
    ), "token" AS (
        INSERT INTO "refresh_tokens" ("token_hash", "session_id") SELECT p_refresh_token_hash, "id" FROM "created"
    ), "over_cap" AS (
        UPDATE "sessions" SET "revoked_at" = p_now, "revoked_reason" = p_reason
         WHERE "id" IN (
           SELECT "id" FROM "sessions"
            WHERE "user_id" = p_user_id AND "revoked_at" IS NULL AND "expires_at" > p_now AND "id" <> p_id
            ORDER BY "last_used_at" DESC, "created_at" DESC, "id" DESC
           OFFSET p_keep)
        RETURNING "id"::TEXT AS "id"
    ), "device" AS (
        INSERT INTO "known_devices" ("user_id", "device_id", "first_seen_at") VALUES (p_user_id, COALESCE(p_device_id, ''), p_now)
        ON CONFLICT ("user_id", "device_id") DO NOTHING
        RETURNING "device_id"
    )
    SELECT ARRAY(SELECT "id" FROM "over_cap"), EXISTS (SELECT 1 FROM "device");
END
$$;
