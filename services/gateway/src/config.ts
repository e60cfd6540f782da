import { commonEnv, env, GATEWAY_HOST, GATEWAY_PORT, jwtEnv, listenEnv, redisEnv, resolveTopology, SERVICE_NAMES, serviceUrlVariable, type ServiceName } from '@school/config';
import { z } from 'zod';

/** `reference-data` -> `REFERENCE_DATA_URL`, as serviceUrlVariable spells it. */
type KebabToSnake<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}_${KebabToSnake<Tail>}` : Name;
type UpstreamVariable = `${Uppercase<KebabToSnake<ServiceName>>}_URL`;

const DEFAULT_TOPOLOGY = resolveTopology({});

const upstreamEnv = Object.fromEntries(
  SERVICE_NAMES.map((name) => [
    serviceUrlVariable(name),
    env.url(DEFAULT_TOPOLOGY.processes[name].url, ['http:', 'https:']),
  ]),
) as Record<UpstreamVariable, ReturnType<typeof env.url>>;

export const gatewayEnv = {
  ...commonEnv,
  ...listenEnv(GATEWAY_PORT, GATEWAY_HOST),
  ...redisEnv,
  ...jwtEnv,
  ...upstreamEnv,
  /** Trust `X-Forwarded-For` / `X-Forwarded-Proto` from the peer (only behind a proxy that sets them). */
  TRUST_PROXY: env.flag(false),
  UPLOAD_MAX_FILE_SIZE_MB: z.coerce.number().int().positive().default(50),
  /** Longest wait for an upstream's response headers (and between two body chunks); streams are exempt. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayEnv>>;

export function upstreamUrl(config: GatewayConfig, service: ServiceName): string {
  return config[serviceUrlVariable(service) as UpstreamVariable];
}
