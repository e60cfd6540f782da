import { z } from 'zod';
import { isBreachedPassword } from './breached-passwords.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;

/**
 * The strong-password rule of contract §4: 8-32 characters with a lower-case letter, an
 * upper-case letter, a digit and a symbol. Every new password goes through it (reset, set
 * password, user:create, bootstrap admin); those a person chooses through newPassword.
 */
export const strongPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .regex(/[a-z]/, 'must contain a lower-case letter')
  .regex(/[A-Z]/, 'must contain an upper-case letter')
  .regex(/[0-9]/, 'must contain a digit')
  .regex(/[^A-Za-z0-9]/, 'must contain a symbol');

/**
 * A password a person chooses (reset, set password, user:create): strong, and not one of the most
 * common breached passwords (contract §9), refused like any other weak password (400 naming the field).
 */
export const newPassword = strongPassword.refine((password) => !isBreachedPassword(password), 'is too common: it appears in lists of breached passwords');
