-- CreateTable
CREATE TABLE "installation_secrets" (
    "name" VARCHAR(64) NOT NULL,
    "value" VARCHAR(128) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installation_secrets_pkey" PRIMARY KEY ("name")
);
