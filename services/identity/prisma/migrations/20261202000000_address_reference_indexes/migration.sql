-- CreateIndex: reference-data asks whether any user's address (soft-deleted users included) names a geography row.
CREATE INDEX "users_address_province_id_idx" ON "users"("address_province_id");

-- CreateIndex
CREATE INDEX "users_address_district_id_idx" ON "users"("address_district_id");

-- CreateIndex
CREATE INDEX "users_address_municipality_id_idx" ON "users"("address_municipality_id");
