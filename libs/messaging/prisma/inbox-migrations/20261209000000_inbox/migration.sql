-- The inbox every consuming service keeps in its own schema (`Inbox` of @school/messaging): the ids
-- of the broker messages whose effects have committed. The notifier and reference-data built the
-- same table in their own first migrations, hence IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS "processed_messages" (
    "message_id" VARCHAR(255) NOT NULL,
    "event_type" VARCHAR(255) NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("message_id")
);

CREATE INDEX IF NOT EXISTS "processed_messages_processed_at_idx" ON "processed_messages"("processed_at");
