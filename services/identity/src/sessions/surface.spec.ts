import { surfaceAdmits } from './surface.js';

describe('surface and role rule (contract §4)', () => {
  it.each([
    ['admin', 'admin', true],
    ['admin', 'staff', true],
    ['admin', 'customer', false],
    ['mobile', 'customer', true],
    ['mobile', 'admin', false],
    ['mobile', 'staff', false],
  ] as const)('%s surface, %s role: %s', (surface, role, admitted) => {
    expect(surfaceAdmits(surface, role)).toBe(admitted);
  });
});
