import type { Role } from '@school/auth';
import type { AuditActor, AuditTarget, Snapshot } from '@school/messaging';
import { type ProfileSource, toProfile } from './profile.js';

/** The fields of an account an administrator may set, as an audit entry shows their change (contract §13). */
export const AUDITED_USER_FIELDS = ['email', 'name', 'role', 'phone', 'banned', 'address'] as const;

/** The audited fields of an account, in the shape the API shows them. */
export function auditedUser(user: ProfileSource & { banned: boolean }): Snapshot {
  const { email, name, role, phone, address } = toProfile(user, false);
  return { email, name, role, phone, banned: user.banned, address };
}

export function userTarget(publicId: string): AuditTarget {
  return { type: 'user', id: publicId };
}

export function userActor(user: { publicId: string; role: Role }): AuditActor {
  return { publicId: user.publicId, role: user.role };
}
