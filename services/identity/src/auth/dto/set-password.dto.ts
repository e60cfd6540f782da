import { z } from 'zod';
import { newPassword } from '../../passwords/password-policy.js';
import { LOGIN_PASSWORD_MAX_LENGTH } from './login.dto.js';

/** Spec §2.3: currentPassword is required only when the account already has a password. */
export const setPasswordBody = z.strictObject({
  newPassword,
  currentPassword: z.string().min(1, 'must not be empty').max(LOGIN_PASSWORD_MAX_LENGTH, `must be at most ${LOGIN_PASSWORD_MAX_LENGTH} characters`).optional(),
});

export type SetPasswordBody = z.output<typeof setPasswordBody>;
