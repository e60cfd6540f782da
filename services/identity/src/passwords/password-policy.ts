import { strongPassword } from '@school/contracts';
import { isBreachedPassword } from './breached-passwords.js';

/**
 * A password a person chooses (reset, set password, user:create): strong (the rule of contract §4), and not one of the most
 * common breached passwords (contract §9), refused like any other weak password (400 naming the field).
 */
export const newPassword = strongPassword.refine((password) => !isBreachedPassword(password), 'is too common: it appears in lists of breached passwords');
