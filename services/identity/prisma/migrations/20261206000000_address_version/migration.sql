-- Grows with every address write; reference-data keeps the highest version its events told it.
ALTER TABLE "users" ADD COLUMN "address_version" INTEGER NOT NULL DEFAULT 0;

-- reference-data no longer asks identity which rows addresses name (it keeps the usages itself).
DROP INDEX "users_address_province_id_idx";

-- DropIndex
DROP INDEX "users_address_district_id_idx";

-- DropIndex
DROP INDEX "users_address_municipality_id_idx";
