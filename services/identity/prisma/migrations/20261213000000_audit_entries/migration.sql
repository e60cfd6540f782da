-- Contract §13: the audit trail, and the accounts whose entries an erasure scrubbed (§11).
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "actor_public_id" VARCHAR(64),
    "actor_email" VARCHAR(255),
    "actor_role" VARCHAR(32),
    "action" VARCHAR(64) NOT NULL,
    "resource" VARCHAR(32) NOT NULL,
    "target_type" VARCHAR(32),
    "target_id" VARCHAR(512),
    "changes" JSONB NOT NULL DEFAULT '{}',
    "ip" VARCHAR(64),
    "user_agent" VARCHAR(512),
    "request_id" VARCHAR(128),
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "audit_erased_accounts" (
    "public_id" VARCHAR(64) NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_erased_accounts_pkey" PRIMARY KEY ("public_id")
);

-- Newest first with ties by id: the keyset of every page, alone and behind each filter.
CREATE INDEX "audit_entries_occurred_at_id_idx" ON "audit_entries"("occurred_at" DESC, "id");
CREATE INDEX "audit_entries_actor_public_id_occurred_at_id_idx" ON "audit_entries"("actor_public_id", "occurred_at" DESC, "id");
CREATE INDEX "audit_entries_action_occurred_at_id_idx" ON "audit_entries"("action", "occurred_at" DESC, "id");
CREATE INDEX "audit_entries_resource_occurred_at_id_idx" ON "audit_entries"("resource", "occurred_at" DESC, "id");
CREATE INDEX "audit_entries_target_type_occurred_at_id_idx" ON "audit_entries"("target_type", "occurred_at" DESC, "id");
CREATE INDEX "audit_entries_target_id_occurred_at_id_idx" ON "audit_entries"("target_id", "occurred_at" DESC, "id");
CREATE INDEX "audit_erased_accounts_erased_at_idx" ON "audit_erased_accounts"("erased_at");
