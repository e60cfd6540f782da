import type { ThrottlePolicyName } from '@school/contracts';

export type { ThrottlePolicyName };

/** What identifies a caller for a throttle: the client ip, the `X-Device-Id` header, the login email, the JWT subject. */
export type ThrottleKeyPart = 'ip' | 'device' | 'email' | 'user';

export interface ThrottlePolicy {
  limit: number;
  windowMs: number;
  key: readonly ThrottleKeyPart[];
}

const MINUTE = 60_000;

/**
 * The limit, window and key of every throttle the routes name (spec §4.2, §4.3, §8; contract §4 and §9). A policy is one counter per key: the
 * admin and mobile routes of the same operation share it. A route may count against several.
 */
export const THROTTLE_POLICIES = {
  login: { limit: 10, windowMs: MINUTE, key: ['ip', 'email'] },
  loginPerIp: { limit: 100, windowMs: MINUTE, key: ['ip'] },
  emailVerifyResend: { limit: 5, windowMs: 15 * MINUTE, key: ['ip'] },
  forgotPassword: { limit: 5, windowMs: 15 * MINUTE, key: ['ip'] },
  resetPassword: { limit: 10, windowMs: 15 * MINUTE, key: ['ip'] },
  setPassword: { limit: 5, windowMs: 15 * MINUTE, key: ['user'] },
  guestFeedback: { limit: 5, windowMs: 60 * MINUTE, key: ['ip', 'device'] },
  guestFeedbackPerIp: { limit: 20, windowMs: 60 * MINUTE, key: ['ip'] },
  feedback: { limit: 10, windowMs: 60 * MINUTE, key: ['user'] },
  adminUpload: { limit: 60, windowMs: MINUTE, key: ['user'] },
  mobileUpload: { limit: 10, windowMs: MINUTE, key: ['ip'] },
  mobileSignedUrl: { limit: 60, windowMs: MINUTE, key: ['ip'] },
} as const satisfies Record<ThrottlePolicyName, ThrottlePolicy>;

/** A policy keyed on the body can only run once the body is parsed; all others run before it is read. */
export function needsBody(policy: ThrottlePolicy): boolean {
  return policy.key.includes('email');
}
