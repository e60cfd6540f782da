import { describe, expect, it } from '@jest/globals';
import type { AuditEntryDto } from '@school/contracts';
import { decodeCursor, encodeCursor } from './audit-cursor.js';
import { auditCsv, csvCell, prefersCsv } from './audit-csv.js';
import { withoutPersonalFields } from './erasure-scrub.js';

const ID = '0193a0c4-1b2c-7d3e-8f40-123456789abc';

describe('audit cursor', () => {
  it('gives back the position it was made from', () => {
    const position = { occurredAt: new Date('2026-11-28T01:02:03.456Z'), id: ID };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('refuses any altered, truncated or made-up cursor with 400 VALIDATION_FAILED naming the cursor', () => {
    const cursor = encodeCursor({ occurredAt: new Date('2026-11-28T01:02:03.456Z'), id: ID });
    const flipped = (at: number) => cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
    const forged = `${Buffer.from(`v1:1:${ID}`).toString('base64url')}.${cursor.split('.')[1]}`;
    for (const bad of [flipped(0), flipped(5), flipped(cursor.length - 1), cursor.slice(0, -1), `${cursor}.x`, 'abc', '', forged, `${cursor}=`]) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', errors: [expect.objectContaining({ field: 'cursor' })] }));
    }
  });
});

describe('audit CSV', () => {
  const entry: AuditEntryDto = {
    id: ID,
    occurredAt: '2026-11-28T01:02:03.456Z',
    actor: { publicId: 'p1', email: 'a@example.com', role: 'admin' },
    action: 'user.update',
    target: { type: 'user', id: 't1' },
    changes: { name: { from: 'A, "B"', to: 'C' } },
    ip: '203.0.113.7',
    userAgent: '=HYPERLINK("http://x")',
    requestId: null,
  };

  it('writes the header row of contract §13, then one CRLF line per entry, nulls empty, changes as JSON', () => {
    expect(auditCsv([entry])).toBe(
      'id,occurredAt,actorPublicId,actorEmail,actorRole,action,targetType,targetId,ip,userAgent,requestId,changes\r\n' +
        `${ID},2026-11-28T01:02:03.456Z,p1,a@example.com,admin,user.update,user,t1,203.0.113.7,"'=HYPERLINK(""http://x"")",,"{""name"":{""from"":""A, \\""B\\"""",""to"":""C""}}"\r\n`,
    );
    expect(auditCsv([])).toBe('id,occurredAt,actorPublicId,actorEmail,actorRole,action,targetType,targetId,ip,userAgent,requestId,changes\r\n');
  });

  it('quotes per RFC 4180 and defuses cells a spreadsheet would evaluate', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell(null)).toBe('');
  });

  it('answers CSV when Accept prefers text/csv, JSON otherwise', () => {
    expect(prefersCsv('text/csv')).toBe(true);
    expect(prefersCsv('text/csv; charset=utf-8')).toBe(true);
    expect(prefersCsv('application/json, text/csv;q=0.5')).toBe(false);
    expect(prefersCsv('text/csv, application/json;q=0.9')).toBe(true);
    expect(prefersCsv('*/*')).toBe(false);
    expect(prefersCsv(undefined)).toBe(false);
    expect(prefersCsv('text/csv;q=0')).toBe(false);
  });
});

describe('erasure scrub', () => {
  it('drops the personal fields and their parts, and keeps the rest', () => {
    const change = { from: 'x', to: 'y' };
    expect(
      withoutPersonalFields({
        name: change,
        email: change,
        phone: change,
        address: change,
        'address.street': change,
        addressWard: change,
        ward: change,
        street: change,
        provinceId: change,
        role: change,
        banned: change,
        deletedAt: change,
        emailVerified: change,
      }),
    ).toEqual({ role: change, banned: change, deletedAt: change, emailVerified: change });
  });
});
