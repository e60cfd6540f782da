-- A claim is named by its id (GEOGRAPHY_CHECK answers it, identity's event confirms it).
ALTER TABLE "address_claims" DROP CONSTRAINT "address_claims_pkey";
ALTER TABLE "address_claims" DROP COLUMN "id";
ALTER TABLE "address_claims" ADD COLUMN "id" UUID NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE "address_claims" ALTER COLUMN "id" DROP DEFAULT;
ALTER TABLE "address_claims" ADD CONSTRAINT "address_claims_pkey" PRIMARY KEY ("id");

-- CreateTable
CREATE TABLE "geography_usages" (
    "user_id" VARCHAR(64) NOT NULL,
    "province_id" INTEGER,
    "district_id" INTEGER,
    "municipality_id" INTEGER,
    "version" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "geography_usages_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "geography_usages_province_id_idx" ON "geography_usages"("province_id");

-- CreateIndex
CREATE INDEX "geography_usages_district_id_idx" ON "geography_usages"("district_id");

-- CreateIndex
CREATE INDEX "geography_usages_municipality_id_idx" ON "geography_usages"("municipality_id");

-- CreateTable
CREATE TABLE "processed_messages" (
    "message_id" VARCHAR(255) NOT NULL,
    "event_type" VARCHAR(255) NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("message_id")
);

-- CreateIndex
CREATE INDEX "processed_messages_processed_at_idx" ON "processed_messages"("processed_at");
