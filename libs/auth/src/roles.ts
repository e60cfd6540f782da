/** The roles of contract §4. */
export const ROLES = ['admin', 'staff', 'customer'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
