import type { FastifyRequest } from 'fastify';
import { emailOfMfaToken } from '@school/auth';
import { THROTTLE_POLICIES, type ThrottleKeyPart, type ThrottlePolicyName } from '@school/contracts';
import { AppError, MAX_SIGNED_URL_KEYS } from '@school/http';
import type { Throttle } from './throttle.js';

export const DEVICE_ID_HEADER = 'x-device-id';

export interface ThrottleHookOptions {
  /** How many requests this one counts as, all or nothing (see Throttle.hit); one when absent. */
  batchSize?: (request: FastifyRequest) => number;
}

/** A hook that counts the request against its policy and refuses it with 429 RATE_LIMITED and `Retry-After` over the limit. */
export function throttleHook(throttle: Throttle, policyName: ThrottlePolicyName, options: ThrottleHookOptions = {}) {
  const policy = THROTTLE_POLICIES[policyName];
  return async (request: FastifyRequest): Promise<void> => {
    const subject = policy.key.map((part) => keyPart(request, part)).join('\n');
    const decision = await throttle.hit(policyName, subject, options.batchSize?.(request));
    if (!decision.allowed) {
      throw new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
    }
  };
}

function keyPart(request: FastifyRequest, part: ThrottleKeyPart): string {
  switch (part) {
    case 'ip':
      return request.client.ip;
    case 'device': {
      const device = request.headers[DEVICE_ID_HEADER];
      return typeof device === 'string' ? device : '';
    }
    case 'email': {
      // The second sign-in step names no email: its mfaToken carries the password step's (contract §12).
      const body = request.body as { email?: unknown; mfaToken?: unknown } | null | undefined;
      if (typeof body?.email === 'string') return body.email.trim().toLowerCase();
      return emailOfMfaToken(body?.mfaToken);
    }
    case 'user':
      return request.principal?.userId ?? '';
  }
}

/**
 * Contract §9: every key of a batch of signed URLs is one request. A body media will refuse anyway
 * (no `keys` array, or more than MAX_SIGNED_URL_KEYS) counts as one.
 */
export function signedUrlKeyCount(request: FastifyRequest): number {
  const keys = (request.body as { keys?: unknown } | null | undefined)?.keys;
  return Array.isArray(keys) && keys.length >= 1 && keys.length <= MAX_SIGNED_URL_KEYS ? keys.length : 1;
}
