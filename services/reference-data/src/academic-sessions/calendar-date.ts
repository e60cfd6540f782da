/** The Date a `date` column stores for a calendar date (midnight UTC). */
export function toDateColumn(value: string): Date {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** A `date` column's value as `YYYY-MM-DD`. */
export function fromDateColumn(date: Date): string {
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  return `${year}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}
