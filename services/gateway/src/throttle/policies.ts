import type { ThrottlePolicy } from '@school/contracts';

/** A policy keyed on the body can only run once the body is parsed; all others run before it is read. */
export function needsBody(policy: ThrottlePolicy): boolean {
  return policy.key.includes('email');
}
