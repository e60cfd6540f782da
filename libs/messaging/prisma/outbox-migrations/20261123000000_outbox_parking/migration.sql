-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN "parked_at" TIMESTAMPTZ(3);
