import { isJsonBody, type RouteSpec } from './route-spec.js';
import type { ServiceLimitName, ThrottlePolicyName } from './throttle-policies.js';

/**
 * What may refuse a route with 429 RATE_LIMITED and `Retry-After`: its throttle policies, the
 * service's own limits, and the gateway's per-user slots, which every stream route and every
 * upload route takes (contract §9).
 */
export type RateLimit = ThrottlePolicyName | ServiceLimitName | 'streamSlots' | 'uploadsInFlight';

/** The limits of a route, read from its manifest entry: what its 429 is documented from, so none is forgotten. */
export function rateLimitsOf(spec: RouteSpec): RateLimit[] {
  return [
    ...(spec.throttles ?? []),
    ...(spec.perKeyThrottles ?? []),
    ...(spec.serviceLimits ?? []),
    ...(spec.stream ? (['streamSlots'] as const) : []),
    ...(spec.body && !isJsonBody(spec.body) ? (['uploadsInFlight'] as const) : []),
  ];
}
