/** Every permission name (`<Module>_<ACTION>`, spec §5, contract §6 and §13), spelled here only. */
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
  'Audit_READ',
] as const;

export type Permission = (typeof PERMISSION_NAMES)[number];

export const PERMISSIONS = Object.freeze(Object.fromEntries(PERMISSION_NAMES.map((name) => [name, name]))) as {
  readonly [Name in Permission]: Name;
};
