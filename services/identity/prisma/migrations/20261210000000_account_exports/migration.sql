-- The copies made of each account's data (contract §11: at most 5 per account an hour, over the three export routes).
CREATE TABLE "account_exports" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_exports_user_id_created_at_idx" ON "account_exports"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "account_exports" ADD CONSTRAINT "account_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
