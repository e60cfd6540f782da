import { z } from 'zod';
import { GATEWAY_METRICS_HOST, GATEWAY_METRICS_PORT, resolveTopology, SERVICE_HOST } from './topology.js';

/** Environment parsing helpers; every default is the one contract §1 states. */

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const url = (fallback: string, protocols: readonly string[]) =>
  z
    .string()
    .default(fallback)
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL (${protocols.join(' or ')})`,
    );

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const env = { port, url, flag, seconds };

export const commonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Share of 2xx/3xx responses that get an access log line (info); 4xx and 5xx always do. */
  ACCESS_LOG_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(1),
  PUBLIC_BASE_URL: url('http://localhost:3000', ['http:', 'https:']),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
};

export const databaseEnv = {
  DATABASE_URL: url('postgresql://postgres@127.0.0.1:5432/postgres', ['postgresql:', 'postgres:']),
  /** How long a transaction may wait for a pooled connection; past it the request is 503 with Retry-After. */
  DATABASE_TRANSACTION_MAX_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(2_000),
  /** How long a transaction may run before it is rolled back (and the request answered 503). */
  DATABASE_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(1).max(300_000).default(5_000),
};

export const redisEnv = {
  REDIS_URL: url('redis://127.0.0.1:6379', ['redis:', 'rediss:']),
};

export const amqpEnv = {
  AMQP_URL: url('amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:']),
  /** Prefix of exchange and queue names: empty in production, random in tests sharing one vhost. */
  AMQP_NAME_PREFIX: z
    .string()
    .regex(/^[\w.-]{0,64}$/, 'letters, digits, _ . - only')
    .default(''),
};

/** Token verification settings shared by the gateway and every service. */
export const jwtEnv = {
  JWT_ISSUER: z.string().min(1).default('school-commerce-identity'),
  JWT_AUDIENCE: z.string().min(1).default('school-commerce'),
  JWKS_URL: url(resolveTopology({}).jwksUrl, ['http:', 'https:']),
  /**
   * How long a verifier uses a fetched JWKS before fetching it again (identity's answer says the same
   * in Cache-Control). Identity waits this long before signing with a newly published key, so every
   * verifier knows it first, and a retired key stops verifying at most this long after it left the JWKS.
   */
  JWKS_CACHE_SECONDS: seconds(300),
};

/**
 * The key of the gateway's HMAC over the `X-Forwarded-For` it sends (docs/decisions/0007): read by the
 * gateway and by the services that use the client address. Unset outside production: generated
 * once per installation and kept in Redis. Required in production (forwardingSecretRequiredInProduction).
 */
export const forwardingEnv = {
  FORWARDING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
};

export const forwardingSecretRequiredInProduction = (config: { NODE_ENV: string; FORWARDING_SECRET?: string | undefined }) =>
  config.NODE_ENV === 'production' && !config.FORWARDING_SECRET ? { variable: 'FORWARDING_SECRET', problem: 'must be set to a secret of your own in production' } : undefined;

/**
 * Where a service listens. Services bind to loopback by default: the gateway is the only public
 * port (contract §1); a container deployment sets HOST=0.0.0.0.
 */
export function listenEnv(defaultPort: number, defaultHost = SERVICE_HOST) {
  return {
    HOST: z.string().min(1).default(defaultHost),
    PORT: port(defaultPort),
  };
}

/** The gateway's Prometheus listener, apart from its public port and bound apart from HOST (contract §9). */
export const gatewayMetricsEnv = {
  /** Port of the gateway's own listener for GET /metrics (Prometheus), apart from the public PORT. */
  METRICS_PORT: port(GATEWAY_METRICS_PORT),
  /** Interface of that listener: loopback unless set (containers set 0.0.0.0 so the scraper reaches it). */
  METRICS_HOST: z.string().min(1).default(GATEWAY_METRICS_HOST),
};

/** Applying migrations at start-up is on by default; a deployment running them as a job turns it off. */
export const migrationEnv = {
  MIGRATE_ON_START: flag(true),
};

/** Everything a NestJS service of contract §1 reads, plus its own variables. */
export function serviceEnv<Extra extends z.ZodRawShape>(defaultPort: number, extra: Extra) {
  return {
    ...commonEnv,
    ...listenEnv(defaultPort),
    ...databaseEnv,
    ...redisEnv,
    ...jwtEnv,
    ...migrationEnv,
    ...extra,
  };
}
