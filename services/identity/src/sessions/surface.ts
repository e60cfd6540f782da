import type { Role } from '@school/auth';

/** The two client surfaces: the admin backoffice (`/api/auth`) and the customer app (`/api/mobile/auth`). */
export const SURFACES = { admin: 'admin', mobile: 'mobile' } as const;

export type Surface = (typeof SURFACES)[keyof typeof SURFACES];

/** Contract §4: admin login accepts admin and staff, mobile login accepts customer. */
const SURFACE_ROLES: Readonly<Record<Surface, readonly Role[]>> = {
  admin: ['admin', 'staff'],
  mobile: ['customer'],
};

export function surfaceAdmits(surface: Surface, role: Role): boolean {
  return SURFACE_ROLES[surface].includes(role);
}

export function rolesAdmittedBy(surface: Surface): readonly Role[] {
  return SURFACE_ROLES[surface];
}
