-- CreateTable
CREATE TABLE "installation_secrets" (
    "name" VARCHAR(64) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installation_secrets_pkey" PRIMARY KEY ("name")
);

-- CreateIndex: a customer's stored bytes are summed on every upload (the storage quota).
CREATE INDEX "uploads_owner_id_idx" ON "uploads"("owner_id");
