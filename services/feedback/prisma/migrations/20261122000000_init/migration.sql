-- CreateEnum
CREATE TYPE "feedback_category" AS ENUM ('bug_report', 'feature_request', 'general_feedback');

-- CreateTable
CREATE TABLE "feedback_submissions" (
    "id" UUID NOT NULL,
    "user_id" UUID,
    "name" VARCHAR(120),
    "email" VARCHAR(255),
    "phone" VARCHAR(40),
    "category" "feedback_category" NOT NULL,
    "subject" VARCHAR(255),
    "message" VARCHAR(5000) NOT NULL,
    "ip" VARCHAR(45),
    "device_id" VARCHAR(255),
    "user_agent" VARCHAR(1024),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feedback_submissions_pkey" PRIMARY KEY ("id")
);
