import { describe, expect, it } from '@jest/globals';
import { datesValid, decidePatch, deleteRefusal } from './academic-session-rules.js';

const stored = (isCurrent: boolean) => ({ startDate: '2025-04-14', endDate: '2026-04-13', isCurrent });

describe('academic session rules (spec §3.2, §4.6)', () => {
  it('wants endDate strictly after startDate', () => {
    expect(datesValid('2025-01-01', '2025-01-02')).toBe(true);
    expect(datesValid('2025-01-01', '2025-01-01')).toBe(false);
    expect(datesValid('2025-01-02', '2025-01-01')).toBe(false);
    expect(datesValid('2025-12-31', '2026-01-01')).toBe(true);
  });

  it('checks a PATCH carrying one end against the stored other end', () => {
    expect(decidePatch(stored(false), { startDate: '2026-04-13' })).toEqual({ refuse: 'ACADEMIC_SESSION_DATES_INVALID' });
    expect(decidePatch(stored(false), { endDate: '2025-04-01' })).toEqual({ refuse: 'ACADEMIC_SESSION_DATES_INVALID' });
    expect(decidePatch(stored(false), { startDate: '2026-04-12' })).toEqual({ becomesCurrent: false });
    expect(decidePatch(stored(false), { startDate: '2027-01-01', endDate: '2028-01-01' })).toEqual({ becomesCurrent: false });
  });

  it('refuses to unset the only current session before anything else', () => {
    expect(decidePatch(stored(true), { isCurrent: false, endDate: '2000-01-01' })).toEqual({ refuse: 'ACADEMIC_SESSION_CURRENT_REQUIRED' });
  });

  it('hands over only to a row that is not current yet', () => {
    expect(decidePatch(stored(false), { isCurrent: true })).toEqual({ becomesCurrent: true });
    expect(decidePatch(stored(true), { isCurrent: true })).toEqual({ becomesCurrent: false });
    expect(decidePatch(stored(false), { isCurrent: false })).toEqual({ becomesCurrent: false });
  });

  it('refuses to delete the current session only', () => {
    expect(deleteRefusal({ isCurrent: true })).toBe('ACADEMIC_SESSION_IS_CURRENT');
    expect(deleteRefusal({ isCurrent: false })).toBeUndefined();
  });
});
