import { emailAddress, singleLine } from '@school/http';
import { z } from 'zod';

/**
 * Longest password accepted at login. New passwords are capped at 32 by the strong-password
 * rule; login accepts more so a future policy change does not lock anyone out, yet bounds the work.
 */
export const LOGIN_PASSWORD_MAX_LENGTH = 128;

/** Spec §2.1. deviceInfo is optional; when sent, each of its fields is optional too but never blank, and single-line (contract §3). */
export const loginBody = z.strictObject({
  email: emailAddress,
  password: z.string().min(1, 'is required').max(LOGIN_PASSWORD_MAX_LENGTH, `must be at most ${LOGIN_PASSWORD_MAX_LENGTH} characters`),
  deviceInfo: z
    .strictObject({
      deviceId: singleLine(1, 255).optional(),
      deviceType: singleLine(1, 64).optional(),
      deviceName: singleLine(1, 255).optional(),
    })
    .optional(),
});

export type LoginBody = z.output<typeof loginBody>;
