-- When a device's new-device email went out: the emails of the last hour are counted (contract §10, 3 an hour).
ALTER TABLE "known_devices" ADD COLUMN "alerted_at" TIMESTAMPTZ(3);
