import type { FastifyRequest } from 'fastify';
import { AppError } from '@school/http';
import { clientAddress } from '../request/client-ip.js';
import { THROTTLE_POLICIES, type ThrottleKeyPart, type ThrottlePolicyName } from './policies.js';
import type { Throttle } from './throttle.js';

export const DEVICE_ID_HEADER = 'x-device-id';

/** A hook that counts the request against its policy and refuses it with 429 RATE_LIMITED and `Retry-After` over the limit. */
export function throttleHook(throttle: Throttle, policyName: ThrottlePolicyName, options: { trustedProxies: number }) {
  const policy = THROTTLE_POLICIES[policyName];
  return async (request: FastifyRequest): Promise<void> => {
    const subject = policy.key.map((part) => keyPart(request, part, options.trustedProxies)).join('\n');
    const decision = await throttle.hit(policyName, subject);
    if (!decision.allowed) {
      throw new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
    }
  };
}

function keyPart(request: FastifyRequest, part: ThrottleKeyPart, trustedProxies: number): string {
  switch (part) {
    case 'ip':
      return clientAddress(request, trustedProxies).ip;
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
