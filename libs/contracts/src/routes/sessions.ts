import { z } from 'zod';
import { timestamp } from '../http/envelopes.js';

/** A live session in the answers of contract §10 (`current` only on the caller's own list). */
export const sessionSchema = z.object({
  id: z.uuid().describe('the session id: the `sid` of its access tokens'),
  deviceId: z.string().nullable(),
  deviceType: z.string().nullable(),
  deviceName: z.string().nullable(),
  createdAt: timestamp,
  lastUsedAt: timestamp.describe('the last login or refresh of the session'),
});
export type SessionDto = z.input<typeof sessionSchema>;

export const ownSessionSchema = sessionSchema.extend({ current: z.boolean().describe('the session of the calling token') });
export type OwnSessionDto = z.input<typeof ownSessionSchema>;

export const endedSessionsSchema = z.object({ ended: z.number().int().describe('how many sessions were ended') });
