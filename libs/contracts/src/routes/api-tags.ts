/** The groups of the public API (OpenAPI tags): the route manifests name them, the gateway describes them. */
export const API_TAGS = {
  'admin-auth': 'Administrator and staff authentication (spec §4.1): login, refresh, passwords, verification, the caller’s profile and sessions',
  'mobile-auth': 'Customer authentication on the mobile surface (spec §4.2), and the caller’s sessions',
  users: 'Accounts: profiles, pages of profiles and an account’s sessions (contract §6, §10)',
  keys: 'The public keys that verify access tokens (contract §4)',
  'academic-sessions': 'Academic sessions and which one is current (spec §4.6)',
  geography: 'Provinces, districts and municipalities (spec §4.7)',
  'school-profile': 'The school’s profile (contract §6)',
  feedback: 'Guest and customer feedback (spec §4.3)',
  uploads: 'Administrator uploads and viewable URLs of stored files (spec §4.4)',
  'mobile-uploads': 'Customer uploads and viewable URLs of their files (spec §4.5)',
  files: 'Stored files behind signed URLs, without a bearer token (contract §8)',
  notifications: 'Live notifications for administrators (contract §7)',
  audit: 'Who changed what, when, from where: the audit trail of the admin surface and its sign-ins (contract §13)',
} as const;

export type ApiTag = keyof typeof API_TAGS;

/** A tag's description; a tag of no route (a placeholder's service name) says whose routes it groups. */
export function tagDescription(name: string): string {
  return name in API_TAGS ? API_TAGS[name as ApiTag] : `Routes of the ${name} service`;
}
