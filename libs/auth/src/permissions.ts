import { AppError } from '@school/http';
import type { Role } from './roles.js';

/** Every permission name (`<Module>_<ACTION>`, spec §5 and contract §6), spelled here only. */
export const PERMISSION_NAMES = [
  'AcademicSessions_READ',
  'AcademicSessions_CREATE',
  'AcademicSessions_UPDATE',
  'AcademicSessions_DELETE',
  'Geography_READ',
  'Geography_CREATE',
  'Geography_UPDATE',
  'Geography_DELETE',
  'Feedback_READ',
  'Users_READ',
  'Users_CREATE',
  'Users_UPDATE',
  'Users_DELETE',
  'SchoolProfile_READ',
  'SchoolProfile_UPDATE',
] as const;

export type Permission = (typeof PERMISSION_NAMES)[number];

export const PERMISSIONS = Object.freeze(Object.fromEntries(PERMISSION_NAMES.map((name) => [name, name]))) as {
  readonly [Name in Permission]: Name;
};

/** Contract §4: admin holds every permission, staff only Feedback_READ, customer none. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = Object.freeze({
  admin: Object.freeze([...PERMISSION_NAMES]),
  staff: Object.freeze([PERMISSIONS.Feedback_READ]),
  customer: Object.freeze([]),
});

export function permissionsOf(role: Role): readonly Permission[] {
  return ROLE_PERMISSIONS[role];
}

export function hasPermissions(role: Role, required: readonly Permission[]): boolean {
  const held = ROLE_PERMISSIONS[role];
  return required.every((permission) => held.includes(permission));
}

/** Throws 403 PERMISSION_INSUFFICIENT unless the role holds every one of `required`. */
export function assertPermissions(role: Role, required: readonly Permission[]): void {
  if (!hasPermissions(role, required)) throw new AppError('PERMISSION_INSUFFICIENT');
}
