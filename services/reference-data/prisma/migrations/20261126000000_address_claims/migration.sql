-- CreateTable
CREATE TABLE "address_claims" (
    "id" BIGSERIAL NOT NULL,
    "province_id" INTEGER NOT NULL,
    "district_id" INTEGER NOT NULL,
    "municipality_id" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "address_claims_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "address_claims_province_id_idx" ON "address_claims"("province_id");

-- CreateIndex
CREATE INDEX "address_claims_district_id_idx" ON "address_claims"("district_id");

-- CreateIndex
CREATE INDEX "address_claims_municipality_id_idx" ON "address_claims"("municipality_id");

-- CreateIndex
CREATE INDEX "address_claims_expires_at_idx" ON "address_claims"("expires_at");
