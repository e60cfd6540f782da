import {
  commonEnv,
  type ConfigRule,
  env,
  forwardingEnv,
  forwardingSecretRequiredInProduction,
  GATEWAY_HOST,
  GATEWAY_PORT,
  gatewayMetricsEnv,
  jwtEnv,
  listenEnv,
  redisEnv,
  resolveTopology,
  SERVICE_NAMES,
  serviceUrlVariable,
  type ServiceName,
} from '@school/config';
import { z } from 'zod';

/** `reference-data` -> `REFERENCE_DATA_URL`, as serviceUrlVariable spells it. */
type KebabToSnake<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}_${KebabToSnake<Tail>}` : Name;
type UpstreamVariable = `${Uppercase<KebabToSnake<ServiceName>>}_URL`;

const DEFAULT_TOPOLOGY = resolveTopology({});

const upstreamEnv = Object.fromEntries(SERVICE_NAMES.map((name) => [serviceUrlVariable(name), env.url(DEFAULT_TOPOLOGY.processes[name].url, ['http:', 'https:'])])) as Record<
  UpstreamVariable,
  ReturnType<typeof env.url>
>;

export const gatewayEnv = {
  ...commonEnv,
  ...listenEnv(GATEWAY_PORT, GATEWAY_HOST),
  ...gatewayMetricsEnv,
  ...redisEnv,
  ...jwtEnv,
  ...upstreamEnv,
  ...forwardingEnv,
  /**
   * How many proxies in front of the gateway append to `X-Forwarded-For` (contract §4). 0 (also
   * unset, `false`, `no`): the client ip is the socket address. `true`/`yes` mean 1.
   */
  TRUST_PROXY: trustedProxyCount(),
  UPLOAD_MAX_FILE_SIZE_MB: z.coerce.number().int().positive().default(50),
  /** Longest wait for an upstream's response headers (and between two body chunks); streams are exempt. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** A request body (JSON routes) not received whole this long after its headers: 408 REQUEST_TIMEOUT (contract §3). */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** The same for upload routes, counted from the request's first byte (contract §3: 10 minutes). */
  UPLOAD_BODY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  /** An upload body that delivers no byte for this long is cut: 408 REQUEST_TIMEOUT (contract §9). */
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Request line and headers not received whole this long after the first byte: 408, connection closed. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /**
   * An idle connection between two requests is closed after this long. Above the 60 s idle timeout
   * of common load balancers, so the balancer closes first and never reuses a connection being closed.
   */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(65_000),
};

function trustedProxyCount() {
  return z
    .string()
    .trim()
    .toLowerCase()
    .default('0')
    .transform((value, context) => {
      if (value === '' || value === 'false' || value === 'no') return 0;
      if (value === 'true' || value === 'yes') return 1;
      if (/^\d{1,2}$/.test(value)) return Number(value);
      context.addIssue({ code: 'custom', message: 'must be the number of trusted proxies (0-99), true or false' });
      return z.NEVER;
    });
}

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayEnv>>;

/** Checked with the values at start-up: a production gateway signs with a forwarding secret of its operator's. */
export const gatewayConfigRules: readonly ConfigRule<GatewayConfig>[] = [forwardingSecretRequiredInProduction];

export function upstreamUrl(config: GatewayConfig, service: ServiceName): string {
  return config[serviceUrlVariable(service) as UpstreamVariable];
}
