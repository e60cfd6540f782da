import { amqpEnv, env, SERVICES, serviceEnv } from '@school/config';
import { z } from 'zod';

const smtpUrl = z
  .string()
  .refine((value) => {
    try {
      return ['smtp:', 'smtps:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be a URL (smtp: or smtps:)')
  .optional();

const count = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/** Contract §1 plus the notifier's own variables (defaults of contract §1 where it gives them). */
export const notifierEnv = serviceEnv(SERVICES['notifier'].port, {
  ...amqpEnv,
  /** Unacknowledged event messages this replica holds at once. */
  AMQP_PREFETCH: count(20, 1000),
  /** Prefix of the notifier's Redis keys and channels (BullMQ queues, live notifications). */
  REDIS_KEY_PREFIX: z.string().max(64).default(''),
  /** Unset: emails are written as .eml files under MAIL_OUTBOX_DIR. */
  SMTP_URL: smtpUrl,
  MAIL_OUTBOX_DIR: z.string().min(1).default('./data/mail'),
  MAIL_FROM: z.email().default('no-reply@example.com'),
  /** The only destination of feedback emails (spec §6): never an address from a request. */
  SUPPORT_EMAIL: z.email().default('support@example.com'),
  /** SMS channel. Unset: the log driver, which masks codes in production; `log` shows them. */
  SMS_DRIVER: z.enum(['log']).optional(),
  EMAIL_ATTEMPTS: count(8, 50),
  /** First retry delay of an email or SMS job; doubles per attempt. */
  EMAIL_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(2_000),
  EMAIL_CONCURRENCY: count(5, 100),
  /**
   * An email job's lock, renewed while it runs: a job whose worker died, or whose move Redis made
   * but whose reply an outage lost, runs again within one and a half of it. The SMTP timeouts are
   * three quarters of it (mailer.ts).
   */
  EMAIL_JOB_LOCK_MS: z.coerce.number().int().min(4_000).max(600_000).default(60_000),
  /** SMS jobs one replica delivers at once. */
  SMS_CONCURRENCY: count(5, 100),
  SSE_HEARTBEAT_SECONDS: env.seconds(25),
});

export type NotifierConfig = z.infer<z.ZodObject<typeof notifierEnv>>;
