import { assertPermissions, hasPermissions, type Permission, PERMISSIONS, permissionsOf, ROLE_PERMISSIONS, ROLES } from './index.js';

const every = Object.values<Permission>(PERMISSIONS);

describe('role permissions (contract §4)', () => {
  it('lets admin do everything', () => {
    for (const permission of every) expect(hasPermissions('admin', [permission])).toBe(true);
    expect(hasPermissions('admin', every)).toBe(true);
  });

  it('lets staff read feedback and nothing else', () => {
    expect(hasPermissions('staff', [PERMISSIONS.Feedback_READ])).toBe(true);
    for (const permission of every.filter((name) => name !== PERMISSIONS.Feedback_READ)) expect(hasPermissions('staff', [permission])).toBe(false);
  });

  it('lets a customer do none of it', () => {
    for (const permission of every) expect(hasPermissions('customer', [permission])).toBe(false);
    expect(permissionsOf('customer')).toHaveLength(0);
  });

  it('answers for each role what it holds', () => {
    for (const role of ROLES) {
      const held = permissionsOf(role);
      for (const permission of every) expect(held.includes(permission)).toBe(hasPermissions(role, [permission]));
    }
  });

  it('requires every listed permission, and nothing when none is listed', () => {
    expect(hasPermissions('staff', [PERMISSIONS.Feedback_READ, PERMISSIONS.Geography_READ])).toBe(false);
    expect(hasPermissions('customer', [])).toBe(true);
  });

  it('refuses a role without the permission with 403 PERMISSION_INSUFFICIENT, and lets one with it through', () => {
    expect(() => assertPermissions('customer', [PERMISSIONS.Feedback_READ])).toThrow(expect.objectContaining({ code: 'PERMISSION_INSUFFICIENT', status: 403 }));
    expect(() => assertPermissions('staff', [PERMISSIONS.Feedback_READ])).not.toThrow();
  });

  it('names each permission <Module>_<ACTION> (spec §5 rule 1), its value its name', () => {
    for (const [name, value] of Object.entries(PERMISSIONS)) {
      expect(value).toBe(name);
      expect(name).toMatch(/^[A-Z][A-Za-z]+_(READ|CREATE|UPDATE|DELETE)$/);
    }
  });

  it('cannot be changed at run time', () => {
    expect(() => (ROLE_PERMISSIONS.staff as string[]).push(PERMISSIONS.Users_DELETE)).toThrow(TypeError);
    expect(hasPermissions('staff', [PERMISSIONS.Users_DELETE])).toBe(false);
  });
});
