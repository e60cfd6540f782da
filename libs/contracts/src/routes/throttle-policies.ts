/** What identifies a caller for a throttle: the client ip, the `X-Device-Id` header, the login email, the JWT subject. */
export type ThrottleKeyPart = 'ip' | 'device' | 'email' | 'user';

export interface ThrottlePolicy {
  limit: number;
  windowMs: number;
  key: readonly ThrottleKeyPart[];
}

const MINUTE = 60_000;

/**
 * The gateway's throttle policies (spec §4.2, §4.3, §8; contract §4 and §9), each declared once with its limit, window
 * and key: the routes name the policies they count against, the gateway enforces them, the README states them. A policy
 * is one counter per key: the admin and mobile routes of the same operation share it. A route may count against several.
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
} as const satisfies Record<string, ThrottlePolicy>;

export type ThrottlePolicyName = keyof typeof THROTTLE_POLICIES;

export const THROTTLE_POLICY_NAMES = Object.keys(THROTTLE_POLICIES) as readonly ThrottlePolicyName[];

/**
 * Limits a service keeps itself (contract §9), each refusing with 429 RATE_LIMITED and `Retry-After`:
 * identity's per-email login back-off, its phone verification codes per account and per number, and
 * the copies of one account's data (contract §11).
 */
export const SERVICE_LIMIT_NAMES = ['loginBackoff', 'phoneVerification', 'accountExport'] as const;

export type ServiceLimitName = (typeof SERVICE_LIMIT_NAMES)[number];
