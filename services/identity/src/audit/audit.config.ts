import { z } from 'zod';

/**
 * AUDIT_RETENTION_DAYS (default 365, contract §13): how long audit entries are kept before the
 * retention job removes them. AMQP_PREFETCH (10): events identity's consumer (the audit store)
 * holds unacknowledged at once.
 */
export const auditEnv = {
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  AMQP_PREFETCH: z.coerce.number().int().min(1).max(1000).default(10),
};

export type AuditConfig = z.infer<z.ZodObject<typeof auditEnv>>;
