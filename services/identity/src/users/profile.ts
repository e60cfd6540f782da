import type { Role } from '@school/auth';
import type { User } from '../generated/prisma/client.js';

/** The profile of contract §4, answered by `me`, login, refresh and the users admin routes. */
export interface Profile {
  publicId: string;
  email: string;
  name: string;
  phone: string | null;
  role: Role;
  emailVerified: boolean;
  phoneVerified: boolean;
  /** False while the account has no EMAIL-provider password (spec §2.4). */
  hasPassword: boolean;
  createdAt: string;
}

/** The user columns a profile shows. */
export type ProfileSource = Pick<User, 'publicId' | 'email' | 'name' | 'phone' | 'role' | 'emailVerifiedAt' | 'phoneVerifiedAt' | 'createdAt'>;

export function toProfile(user: ProfileSource, hasPassword: boolean): Profile {
  return {
    publicId: user.publicId,
    email: user.email,
    name: user.name,
    phone: user.phone,
    role: user.role,
    emailVerified: user.emailVerifiedAt !== null,
    phoneVerified: user.phoneVerifiedAt !== null,
    hasPassword,
    createdAt: user.createdAt.toISOString(),
  };
}
