-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "type" VARCHAR(255) NOT NULL,
    "payload" JSONB NOT NULL,
    "traceparent" VARCHAR(255),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" VARCHAR(1000),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbox_events_sent_at_available_at_idx" ON "outbox_events"("sent_at", "available_at");

-- Wakes the outbox relay (@school/messaging) the moment a transaction that recorded events commits:
-- NOTIFY is delivered at commit and dropped on rollback. One notification per statement is enough.
CREATE FUNCTION "outbox_events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox:' || TG_TABLE_SCHEMA, '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "outbox_events_notify" AFTER INSERT ON "outbox_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "outbox_events_notify"();
