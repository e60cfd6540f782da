import { type Role, ROLES } from '@school/contracts';

export { type Role, ROLES };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
