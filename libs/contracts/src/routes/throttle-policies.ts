/**
 * The names of the gateway's throttle policies (spec §4.2, §4.3, §8; contract §4 and §9). The
 * routes name the policies they count against; the gateway holds each policy's limit, window and key.
 */
export const THROTTLE_POLICY_NAMES = [
  'login',
  'loginPerIp',
  'emailVerifyResend',
  'forgotPassword',
  'resetPassword',
  'setPassword',
  'guestFeedback',
  'guestFeedbackPerIp',
  'feedback',
  'adminUpload',
  'mobileUpload',
  'mobileSignedUrl',
] as const;

export type ThrottlePolicyName = (typeof THROTTLE_POLICY_NAMES)[number];

/**
 * Limits a service keeps itself (contract §9), each refusing with 429 RATE_LIMITED and `Retry-After`:
 * identity's per-email login back-off, its phone verification codes per account and per number, and
 * the copies of one account's data (contract §11).
 */
export const SERVICE_LIMIT_NAMES = ['loginBackoff', 'phoneVerification', 'accountExport'] as const;

export type ServiceLimitName = (typeof SERVICE_LIMIT_NAMES)[number];
