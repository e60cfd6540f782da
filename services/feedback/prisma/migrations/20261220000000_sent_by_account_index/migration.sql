-- A person's copy of their data (contract §11) reads what their account sent, oldest first, and an
-- erasure unlinks the same rows: by this index, not by a scan of every submission (issue 36: at a
-- million submissions the scan took 274 ms of each export, the index 0.1 ms). Partial, beyond
-- schema.prisma: guest submissions, the most, carry no account and add nothing to it.
CREATE INDEX "feedback_submissions_user_id_created_at_id_idx" ON "feedback_submissions" ("user_id", "created_at", "id") WHERE "user_id" IS NOT NULL;
