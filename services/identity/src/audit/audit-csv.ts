import { AUDIT_CSV_COLUMNS, type AuditEntryDto } from '@school/contracts';

/** Cells a spreadsheet would run as a formula start with one of these (OWASP CSV injection; tab and CR too). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): a formula-looking value is defused with a leading apostrophe, then quoted when it must be. */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function row(entry: AuditEntryDto): (string | null)[] {
  return [
    entry.id,
    entry.occurredAt,
    entry.actor?.publicId ?? null,
    entry.actor?.email ?? null,
    entry.actor?.role ?? null,
    entry.action,
    entry.target?.type ?? null,
    entry.target?.id ?? null,
    entry.ip,
    entry.userAgent,
    entry.requestId,
    JSON.stringify(entry.changes),
  ];
}

/** Contract §13: a page as CSV, the header row first, lines ended by CRLF (RFC 4180). */
export function auditCsv(entries: readonly AuditEntryDto[]): string {
  return [AUDIT_CSV_COLUMNS.join(','), ...entries.map((entry) => row(entry).map(csvCell).join(','))].map((line) => `${line}\r\n`).join('');
}

/**
 * Whether a request's Accept prefers CSV over JSON: `text/csv` listed with a quality above zero and
 * at least that of `application/json` (or of a wildcard that would give JSON), else JSON.
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.map((param) => /^q=([\d.]+)$/.exec(param)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (type === 'text/csv') csv = Math.max(csv, quality);
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, quality);
  }
  return csv > 0 && csv >= json;
}
