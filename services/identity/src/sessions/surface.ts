import type { Role, Surface } from '@school/auth';

/** The two client surfaces (declared in @school/auth, whose verifier reads them from tokens). */
export { SURFACES, type Surface } from '@school/auth';

/** Contract §4: admin login accepts admin and staff, mobile login accepts customer. */
const SURFACE_ROLES: Readonly<Record<Surface, readonly Role[]>> = {
  admin: ['admin', 'staff'],
  mobile: ['customer'],
};

export function surfaceAdmits(surface: Surface, role: Role): boolean {
  return SURFACE_ROLES[surface].includes(role);
}

/** An account of the administrator surface (admin, staff): its sign-in events are audited (contract §13), a customer's are not. */
export function isAdminSurfaceAccount(account: { role: Role }): boolean {
  return surfaceAdmits('admin', account.role);
}
