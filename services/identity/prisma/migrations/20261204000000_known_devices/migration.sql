-- Every device an account has logged in from (contract §10); '' stands for a login without a deviceId.
CREATE TABLE "known_devices" (
    "user_id" INTEGER NOT NULL,
    "device_id" VARCHAR(255) NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "known_devices_pkey" PRIMARY KEY ("user_id","device_id")
);

-- AddForeignKey
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "users" ADD COLUMN "trusts_next_login" BOOLEAN NOT NULL DEFAULT false;

-- The devices of the sessions kept so far are known already.
INSERT INTO "known_devices" ("user_id", "device_id", "first_seen_at")
SELECT "user_id", COALESCE("device_id", ''), MIN("created_at") FROM "sessions" GROUP BY 1, 2
ON CONFLICT DO NOTHING;
