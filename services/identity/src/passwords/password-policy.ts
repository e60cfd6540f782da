import { strongPassword } from '@school/contracts';
import { validationFailed } from '@school/http';
import { isBreachedPassword } from './breached-passwords.js';
import { isStrongEnough } from './password-strength.js';

export const BREACHED_PASSWORD_MESSAGE = 'is too common: it appears in lists of breached passwords';
export const GUESSABLE_PASSWORD_MESSAGE = 'is too easy to guess: avoid common words, names, years and patterns, even with digits or symbols added';

/**
 * A new password (reset, invitation, set password, user:create, the production bootstrap admin):
 * strong (the rule of contract §4), not one of the most common breached passwords, and scored at
 * least 3 of 4 by the strength estimator (contract §9); each refused like any other weak password
 * (400 naming the field).
 */
export const newPassword = strongPassword
  .refine((password) => !isBreachedPassword(password), BREACHED_PASSWORD_MESSAGE)
  // Only on a password nothing else refused: the estimator's work grows with the length, bounded by the rule's 32.
  .refine((password) => isStrongEnough(password), { message: GUESSABLE_PASSWORD_MESSAGE, when: (payload) => payload.issues.length === 0 });

/**
 * Refuses a new password the route's schema let through as strong but which is breached or
 * guessable: 400 VALIDATION_FAILED naming `field`, as the schema would. Use cases call it before
 * they look at any credential, so such a request never costs an attempt.
 */
export function refuseUnsafeNewPassword(password: string, field: string): void {
  const result = newPassword.safeParse(password);
  if (!result.success) throw validationFailed(result.error.issues.map((issue) => ({ field, message: issue.message })));
}
