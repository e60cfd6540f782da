-- CreateTable
CREATE TABLE "message_requests" (
    "id" SERIAL NOT NULL,
    "purpose" "credential_purpose" NOT NULL,
    "email" VARCHAR(255),
    "phone" VARCHAR(16),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_requests_pkey" PRIMARY KEY ("id")
);

