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
