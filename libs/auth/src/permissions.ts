import { PERMISSION_NAMES, PERMISSIONS, type Permission } from '@school/contracts';
import { AppError } from '@school/http';
import type { Role } from './roles.js';

export { PERMISSION_NAMES, PERMISSIONS, type Permission };

/** Contract §4: admin holds every permission (Audit_READ of §13 among them), staff only Feedback_READ, customer none. */
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
