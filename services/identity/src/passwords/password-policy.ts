import { strongPassword } from '@school/contracts';
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
