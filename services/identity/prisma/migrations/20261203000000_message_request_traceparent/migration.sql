-- AlterTable
ALTER TABLE "message_requests" ADD COLUMN "traceparent" VARCHAR(255);
