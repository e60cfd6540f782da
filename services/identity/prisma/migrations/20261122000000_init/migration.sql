-- CreateTable
CREATE TABLE "signing_keys" (
    "kid" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "private_key_pem" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("kid")
);
