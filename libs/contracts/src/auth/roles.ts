/** The roles of contract §4. */
export const ROLES = ['admin', 'staff', 'customer'] as const;

export type Role = (typeof ROLES)[number];
