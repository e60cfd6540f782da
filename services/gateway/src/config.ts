import { commonEnv, env, GATEWAY_PORT, jwtEnv, listenEnv, redisEnv, SERVICES, serviceUrlVariable, type ServiceName } from '@school/config';
import { z } from 'zod';

/** `reference-data` -> `REFERENCE_DATA_URL`, as serviceUrlVariable spells it. */
type KebabToSnake<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}_${KebabToSnake<Tail>}` : Name;
type UpstreamVariable = `${Uppercase<KebabToSnake<ServiceName>>}_URL`;

const upstreamEnv = Object.fromEntries(
  (Object.keys(SERVICES) as ServiceName[]).map((name) => [
    serviceUrlVariable(name),
    env.url(`http://127.0.0.1:${SERVICES[name].port}`, ['http:', 'https:']),
  ]),
) as Record<UpstreamVariable, ReturnType<typeof env.url>>;

export const gatewayEnv = {
  ...commonEnv,
  ...listenEnv(GATEWAY_PORT, '0.0.0.0'),
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
