import { z } from 'zod';
import { emailAddress } from '../../users/dto/contact-fields.js';

/**
 * Longest password accepted at login. New passwords are capped at 32 by the strong-password
 * rule; login accepts more so a future policy change does not lock anyone out, yet bounds the work.
 */
export const LOGIN_PASSWORD_MAX_LENGTH = 128;

const deviceField = (max: number) => z.string().trim().min(1, 'must not be blank').max(max, `must be at most ${max} characters`);

/** Spec §2.1. deviceInfo is optional; when sent, each of its fields is optional too but never blank. */
export const loginBody = z.strictObject({
  email: emailAddress,
  password: z.string().min(1, 'is required').max(LOGIN_PASSWORD_MAX_LENGTH, `must be at most ${LOGIN_PASSWORD_MAX_LENGTH} characters`),
  deviceInfo: z
    .strictObject({
      deviceId: deviceField(255).optional(),
      deviceType: deviceField(64).optional(),
      deviceName: deviceField(255).optional(),
    })
    .optional(),
});

export type LoginBody = z.output<typeof loginBody>;
