import { isActiveAdmin, isSelfAction, mayRemoveActiveAdmin, removesActiveAdmin } from './account-rules.js';

const me = '0190a000-0000-7000-8000-000000000001';
const other = '0190a000-0000-7000-8000-000000000002';

describe('account-control rules (contract §6)', () => {
  it('calls an admin neither banned nor deleted active', () => {
    expect(isActiveAdmin({ role: 'admin', banned: false })).toBe(true);
    expect(isActiveAdmin({ role: 'admin', banned: true })).toBe(false);
    expect(isActiveAdmin({ role: 'staff', banned: false })).toBe(false);
  });

  it('refuses banning or deleting oneself, whatever the letter case of the path', () => {
    expect(isSelfAction(me, me, { banned: true })).toBe(true);
    expect(isSelfAction(me, me.toUpperCase(), { deleted: true })).toBe(true);
    expect(isSelfAction(me, other, { banned: true })).toBe(false);
    expect(isSelfAction(me, me, { banned: false })).toBe(false);
    expect(isSelfAction(me, me, { role: 'staff' })).toBe(false);
  });

  it('takes an active admin away by a ban, a delete or a role other than admin', () => {
    expect(mayRemoveActiveAdmin({ banned: true })).toBe(true);
    expect(mayRemoveActiveAdmin({ deleted: true })).toBe(true);
    expect(mayRemoveActiveAdmin({ role: 'staff' })).toBe(true);
    expect(mayRemoveActiveAdmin({ role: 'admin', banned: false })).toBe(false);
    expect(mayRemoveActiveAdmin({})).toBe(false);
    expect(removesActiveAdmin({ role: 'admin', banned: false }, { role: 'customer' })).toBe(true);
    expect(removesActiveAdmin({ role: 'admin', banned: true }, { deleted: true })).toBe(false);
    expect(removesActiveAdmin({ role: 'staff', banned: false }, { banned: true })).toBe(false);
  });
});
