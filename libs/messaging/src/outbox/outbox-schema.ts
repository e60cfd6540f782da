/** The outbox table every producing service keeps in its own schema (contract §1, §7). */
export const OUTBOX_TABLE = 'outbox_events';

/** NOTIFY channel of one schema's outbox; the insert trigger raises it, delivered at commit. */
export function outboxChannel(schema: string): string {
  return `outbox:${schema}`;
}

/**
 * The migration creating the outbox in a service schema (run with `search_path` set to it, as
 * the migration applier does). The table, with OUTBOX_PARKING_MIGRATION_SQL, matches the
 * `OutboxEvent` Prisma model; the trigger function is not modelled by Prisma (the drift check
 * ignores it).
 */
export const OUTBOX_MIGRATION_SQL = `-- CreateTable
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
`;

/**
 * A row whose publish failed `maxAttempts` times is parked: left alone by the relay, its reason in
 * `last_error`, until an operator clears `parked_at` (and `attempts`).
 */
export const OUTBOX_PARKING_MIGRATION_SQL = `-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN "parked_at" TIMESTAMPTZ(3);
`;

/**
 * The outbox's migrations in order, as each producing service's `prisma/migrations/<name>/migration.sql`
 * holds them (a test keeps the copies equal to this text).
 */
export const OUTBOX_MIGRATIONS: ReadonlyArray<{ name: string; sql: string }> = [
  { name: '20261122010000_outbox', sql: OUTBOX_MIGRATION_SQL },
  { name: '20261123000000_outbox_parking', sql: OUTBOX_PARKING_MIGRATION_SQL },
];
