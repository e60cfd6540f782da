import type { FastifyRequest } from 'fastify';
import { AppError } from '@school/http';
import { clientIp } from '../request/client-ip.js';
import { THROTTLE_POLICIES, type ThrottleKeyPart, type ThrottlePolicyName } from './policies.js';
import type { Throttle } from './throttle.js';

export const DEVICE_ID_HEADER = 'x-device-id';

/** A hook that counts the request against its policy and refuses it with 429 RATE_LIMITED and `Retry-After` over the limit. */
export function throttleHook(throttle: Throttle, policyName: ThrottlePolicyName, options: { trustProxy: boolean }) {
  const policy = THROTTLE_POLICIES[policyName];
  return async (request: FastifyRequest): Promise<void> => {
    const subject = policy.key.map((part) => keyPart(request, part, options.trustProxy)).join('\n');
    const decision = await throttle.hit(policyName, subject);
    if (!decision.allowed) {
      throw new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
    }
  };
}

function keyPart(request: FastifyRequest, part: ThrottleKeyPart, trustProxy: boolean): string {
  switch (part) {
    case 'ip':
      return clientIp(request, trustProxy);
    case 'device': {
      const device = request.headers[DEVICE_ID_HEADER];
      return typeof device === 'string' ? device : '';
    }
    case 'email': {
      const body = request.body as { email?: unknown } | null | undefined;
      return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    }
    case 'user':
      return request.principal?.userId ?? '';
  }
}
