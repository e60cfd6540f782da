import { describe, expect, it } from '@jest/globals';
import { isCalendarDate } from '@school/contracts';
import { fromDateColumn, toDateColumn } from './calendar-date.js';

describe('calendar dates YYYY-MM-DD', () => {
  it('accepts days that exist', () => {
    for (const value of ['2025-01-31', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) expect(isCalendarDate(value)).toBe(true);
  });

  it('refuses impossible days and other shapes', () => {
    for (const value of [
      '2025-02-30',
      '2025-02-29',
      '1900-02-29',
      '2025-13-01',
      '2025-00-10',
      '2025-04-31',
      '0000-01-01',
      '2025-1-01',
      '2025-01-01T00:00:00Z',
      '20250101',
      ' 2025-01-01',
      '',
    ]) {
      expect(isCalendarDate(value)).toBe(false);
    }
  });

  it('round-trips through a date column, two-digit years included', () => {
    for (const value of ['2025-04-13', '0099-03-01', '9999-12-31']) expect(fromDateColumn(toDateColumn(value))).toBe(value);
  });
});
