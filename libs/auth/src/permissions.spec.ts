import { AppError } from '@school/http';
import { assertPermissions, hasPermissions, PERMISSIONS, permissionsOf, ROLE_PERMISSIONS, ROLES } from './index.js';

describe('role permissions (contract §4)', () => {
  it('gives admin every permission, staff only Feedback_READ and customer none', () => {
    expect([...permissionsOf('admin')].sort()).toEqual(Object.values(PERMISSIONS).sort());
    expect(permissionsOf('staff')).toEqual(['Feedback_READ']);
    expect(permissionsOf('customer')).toEqual([]);
    expect(Object.keys(ROLE_PERMISSIONS).sort()).toEqual([...ROLES].sort());
  });

  it('declares the permissions of spec §5 and contract §6', () => {
    expect(Object.keys(PERMISSIONS)).toEqual([
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
    ]);
    for (const [name, value] of Object.entries(PERMISSIONS)) expect(value).toBe(name);
  });

  it('requires every listed permission', () => {
    expect(hasPermissions('staff', [PERMISSIONS.Feedback_READ])).toBe(true);
    expect(hasPermissions('staff', [PERMISSIONS.Feedback_READ, PERMISSIONS.Geography_READ])).toBe(false);
    expect(hasPermissions('customer', [])).toBe(true);
    expect(() => assertPermissions('customer', [PERMISSIONS.Feedback_READ])).toThrow(
      expect.objectContaining({ code: 'PERMISSION_INSUFFICIENT', status: 403 }) as unknown as AppError,
    );
  });

  it('cannot be changed at run time', () => {
    expect(() => (ROLE_PERMISSIONS.staff as string[]).push('Users_DELETE')).toThrow(TypeError);
  });
});
