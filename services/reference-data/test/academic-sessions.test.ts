import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { AcademicSessionDto } from '@school/contracts';
import { referenceDataSuite, type HttpAnswer, type ReferenceDataInstance, type ReferenceDataSuite } from './support/reference-data-app.js';

const PATH = '/api/academic-sessions';

type SessionDto = AcademicSessionDto;

describe('academic sessions over HTTP (spec §2.7, §3.2, §4.6, contract §3, §5)', () => {
  let suite: ReferenceDataSuite;
  let app: ReferenceDataInstance;
  let admin: string;
  let year = 2000;

  const create = (body: Record<string, unknown>) => app.request('POST', PATH, body, admin);
  const patch = (publicId: string, body: unknown) => app.request('PATCH', `${PATH}/${publicId}`, body, admin);
  const remove = (publicId: string) => app.request('DELETE', `${PATH}/${publicId}`, undefined, admin);
  const list = (query = '') => app.request('GET', `${PATH}${query}`, undefined, admin);
  /** A valid session body with a name and a year of its own. */
  const session = (overrides: Record<string, unknown> = {}) => {
    year += 1;
    return { name: `Session ${year}`, startDate: `${year}-04-14`, endDate: `${year + 1}-04-13`, ...overrides };
  };
  const created = async (overrides: Record<string, unknown> = {}): Promise<SessionDto> => {
    const answer = await create(session(overrides));
    expect(answer.status).toBe(201);
    return answer.body.data as SessionDto;
  };
  const rows = () => suite.prisma.academicSession.findMany({ orderBy: { id: 'asc' } });
  const expectError = (answer: HttpAnswer, status: number, errorCode: string) => {
    expect({ status: answer.status, errorCode: answer.body.errorCode, data: answer.body.data }).toEqual({ status, errorCode, data: null });
  };

  beforeAll(async () => {
    suite = await referenceDataSuite('rd_sessions');
    app = await suite.start();
    admin = await suite.token('admin');
  });

  afterAll(() => suite?.close());

  beforeEach(async () => {
    await suite.prisma.academicSession.deleteMany();
  });

  describe('authentication and permissions (spec §5)', () => {
    const everyRoute = (publicId: string) =>
      [
        ['GET', PATH, undefined],
        ['POST', PATH, session()],
        ['PATCH', `${PATH}/${publicId}`, { isActive: false }],
        ['DELETE', `${PATH}/${publicId}`, undefined],
      ] as const;

    it('answers 401 AUTH_UNAUTHENTICATED without a token or with a bad one, on every route', async () => {
      const { publicId } = await created();
      for (const token of [undefined, 'not-a-jwt']) {
        for (const [method, path, body] of everyRoute(publicId)) {
          expectError(await app.request(method, path, body, token), 401, 'AUTH_UNAUTHENTICATED');
        }
      }
      expect(await rows()).toHaveLength(1);
    });

    it('answers 403 PERMISSION_INSUFFICIENT to staff and customers on every route, and changes nothing', async () => {
      const { publicId } = await created();
      for (const role of ['staff', 'customer'] as const) {
        const token = await suite.token(role);
        for (const [method, path, body] of everyRoute(publicId)) {
          expectError(await app.request(method, path, body, token), 403, 'PERMISSION_INSUFFICIENT');
        }
      }
      const [row] = await rows();
      expect(await rows()).toHaveLength(1);
      expect(row?.isActive).toBe(true);
    });
  });

  describe('create', () => {
    it('answers 201 with the DTO of §2.7: UUIDv7 publicId, YYYY-MM-DD dates, defaults', async () => {
      const answer = await create({ name: '  2081/82  ', startDate: '2024-04-13', endDate: '2025-04-13' });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ message: expect.any(String), errorCode: null });
      const dto = answer.body.data as SessionDto;
      expect(Object.keys(dto).sort()).toEqual(['createdAt', 'endDate', 'id', 'isActive', 'isCurrent', 'name', 'publicId', 'startDate', 'updatedAt']);
      expect(dto).toMatchObject({ name: '2081/82', startDate: '2024-04-13', endDate: '2025-04-13', isCurrent: false, isActive: true });
      expect(dto.publicId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(typeof dto.id).toBe('number');
      expect(new Date(dto.createdAt).toISOString()).toBe(dto.createdAt);
    });

    it('keeps isActive false when asked', async () => {
      expect((await created({ isActive: false })).isActive).toBe(false);
    });

    it.each([
      ['no name', { name: undefined }],
      ['a blank name', { name: '   ' }],
      ['a name of 65 characters', { name: 'x'.repeat(65) }],
      ['a name with a line break', { name: 'Line\nbreak' }],
      ['a name with a bidi override', { name: 'abc\u202Edef' }],
      ['a name that is not a string', { name: 2081 }],
      ['an impossible date', { startDate: '2025-02-30', endDate: '2026-01-01' }],
      ['a date and time', { startDate: '2025-01-01T00:00:00Z' }],
      ['a date in another format', { endDate: '13/04/2026' }],
      ['a missing endDate', { endDate: undefined }],
      ['isCurrent not a boolean', { isCurrent: 'true' }],
      ['isActive not a boolean', { isActive: 1 }],
      ['an undeclared field', { id: 5 }],
    ])('refuses %s with 400 VALIDATION_FAILED and writes nothing', async (_, overrides) => {
      const answer = await create(JSON.parse(JSON.stringify(session(overrides))) as Record<string, unknown>);
      expectError(answer, 400, 'VALIDATION_FAILED');
      expect(answer.body.errors?.length).toBeGreaterThan(0);
      expect(await rows()).toHaveLength(0);
    });

    it('refuses __proto__ as an undeclared field', async () => {
      const body = `{"name":"Proto","startDate":"2025-01-01","endDate":"2026-01-01","__proto__":{"x":1}}`;
      expectError(await app.request('POST', PATH, body, admin), 400, 'VALIDATION_FAILED');
    });

    it('accepts a name of exactly 64 characters and 29 February of a leap year', async () => {
      expect((await created({ name: 'n'.repeat(64), startDate: '2024-02-29', endDate: '2024-03-01' })).name).toHaveLength(64);
    });
  });

  describe('update', () => {
    it('answers 200 with the updated DTO', async () => {
      const { publicId, updatedAt } = await created({ name: 'Before' });
      const answer = await patch(publicId, { name: ' After ', startDate: '1990-01-01', endDate: '1990-12-31' });
      expect(answer.status).toBe(200);
      expect(answer.body.errorCode).toBeNull();
      expect(answer.body.data).toMatchObject({ publicId, name: 'After', startDate: '1990-01-01', endDate: '1990-12-31' });
      expect((answer.body.data as SessionDto).updatedAt >= updatedAt).toBe(true);
    });

    it('accepts an empty body as a no-op', async () => {
      const dto = await created();
      expect((await patch(dto.publicId, {})).body.data).toMatchObject({ name: dto.name, startDate: dto.startDate });
    });

    it.each([
      ['an impossible startDate', { startDate: '2025-02-30' }],
      ['an impossible endDate', { endDate: '2025-04-31' }],
      ['a name of 65 characters', { name: 'y'.repeat(65) }],
      ['a null name', { name: null }],
      ['isCurrent as a string', { isCurrent: 'true' }],
      ['an undeclared field', { publicId: 'x' }],
    ])('refuses %s with 400 VALIDATION_FAILED and leaves the row unchanged', async (_, body) => {
      const dto = await created();
      expectError(await patch(dto.publicId, { name: 'Changed', ...body }), 400, 'VALIDATION_FAILED');
      const row = await suite.prisma.academicSession.findUnique({ where: { publicId: dto.publicId } });
      expect(row?.name).toBe(dto.name);
      expect(row?.updatedAt.toISOString()).toBe(dto.updatedAt);
    });

    it('answers 404 ACADEMIC_SESSION_NOT_FOUND for an unknown or malformed publicId', async () => {
      await created();
      for (const publicId of ['01926f4e-0000-7000-8000-000000000000', 'not-a-uuid', '1', "x'; DROP TABLE academic_sessions; --"]) {
        expectError(await patch(encodeURIComponent(publicId), { isActive: false }), 404, 'ACADEMIC_SESSION_NOT_FOUND');
        expectError(await remove(encodeURIComponent(publicId)), 404, 'ACADEMIC_SESSION_NOT_FOUND');
      }
      expect(await rows()).toHaveLength(1);
    });

    it('finds a session by its publicId in upper case', async () => {
      const dto = await created();
      expect((await patch(dto.publicId.toUpperCase(), { isActive: false })).status).toBe(200);
    });
  });

  describe('table §3.2', () => {
    it('DELETE of a session that is not current is a hard delete: 200 with data null', async () => {
      const dto = await created();
      const answer = await remove(dto.publicId);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ data: null, errorCode: null, message: expect.any(String) });
      expect(await rows()).toHaveLength(0);
      expectError(await remove(dto.publicId), 404, 'ACADEMIC_SESSION_NOT_FOUND');
      expectError(await patch(dto.publicId, { isActive: true }), 404, 'ACADEMIC_SESSION_NOT_FOUND');
    });

    it('answers 200 with the new current session when PATCH hands "current" over', async () => {
      await created({ isCurrent: true });
      const next = await created();
      const answer = await patch(next.publicId, { isCurrent: true });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ publicId: next.publicId, isCurrent: true });
    });
  });

  // The rules themselves (case, handover, dates, deletes) are test/medium/academic-sessions.medium.test.ts.
  describe("the rules' refusals on the wire", () => {
    it('answers each as 409 with its errorCode and data null, and changes nothing', async () => {
      const current = await created({ isCurrent: true, name: 'Current' });
      const other = await created({ name: 'Other', startDate: '2030-04-14', endDate: '2031-04-13' });
      expectError(await create(session({ name: 'current' })), 409, 'ACADEMIC_SESSION_NAME_TAKEN');
      expectError(await patch(other.publicId, { name: 'CURRENT' }), 409, 'ACADEMIC_SESSION_NAME_TAKEN');
      expectError(await create(session({ startDate: '2025-01-02', endDate: '2025-01-01' })), 409, 'ACADEMIC_SESSION_DATES_INVALID');
      expectError(await patch(other.publicId, { startDate: '2031-04-13' }), 409, 'ACADEMIC_SESSION_DATES_INVALID');
      expectError(await patch(current.publicId, { isCurrent: false }), 409, 'ACADEMIC_SESSION_CURRENT_REQUIRED');
      expectError(await remove(current.publicId), 409, 'ACADEMIC_SESSION_IS_CURRENT');
      expect((await rows()).map((row) => ({ name: row.name, isCurrent: row.isCurrent }))).toEqual([
        { name: 'Current', isCurrent: true },
        { name: 'Other', isCurrent: false },
      ]);
    });
  });

  describe('list (contract §5)', () => {
    /** Rows in a known shape; ids ascend in this order. */
    const arrange = async () => {
      const specs = [
        { name: 'Alpha 100%', startDate: '2020-01-01', endDate: '2020-12-31' },
        { name: 'Beta_1', startDate: '2022-01-01', endDate: '2022-06-30', isActive: false },
        { name: 'Gamma', startDate: '2021-01-01', endDate: '2023-12-31', isCurrent: true },
        { name: 'Delta', startDate: '2022-01-01', endDate: '2022-12-31' },
        { name: 'Epsilon 1000', startDate: '2019-01-01', endDate: '2022-12-31' },
      ];
      for (const spec of specs) expect((await create(spec)).status).toBe(201);
    };
    const names = (answer: HttpAnswer) => (answer.body.data as SessionDto[]).map((dto) => dto.name);

    beforeEach(arrange);

    it('answers the paginated envelope, by startDate descending by default, ties by id ascending', async () => {
      const answer = await list();
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ errorCode: null, count: 5, currentPage: 1, totalPage: 1, message: expect.any(String) });
      expect(names(answer)).toEqual(['Beta_1', 'Delta', 'Gamma', 'Alpha 100%', 'Epsilon 1000']);
      expect(names(await list('?order=asc'))).toEqual(['Epsilon 1000', 'Alpha 100%', 'Gamma', 'Beta_1', 'Delta']);
      expect(names(await list('?sort=unknown&order=asc'))).toEqual(['Epsilon 1000', 'Alpha 100%', 'Gamma', 'Beta_1', 'Delta']);
      expect(names(await list('?sort=startDate'))).toEqual(names(answer));
    });

    it('sorts by name or endDate, ties by id ascending in both orders', async () => {
      expect(names(await list('?sort=name&order=asc'))).toEqual(['Alpha 100%', 'Beta_1', 'Delta', 'Epsilon 1000', 'Gamma']);
      expect(names(await list('?sort=name'))).toEqual(['Gamma', 'Epsilon 1000', 'Delta', 'Beta_1', 'Alpha 100%']);
      expect(names(await list('?sort=endDate&order=asc'))).toEqual(['Alpha 100%', 'Beta_1', 'Delta', 'Epsilon 1000', 'Gamma']);
      expect(names(await list('?sort=endDate&order=desc'))).toEqual(['Gamma', 'Delta', 'Epsilon 1000', 'Beta_1', 'Alpha 100%']);
    });

    it('searches names case-insensitively, % and _ literal', async () => {
      expect(names(await list('?search=GAM'))).toEqual(['Gamma']);
      expect(names(await list(`?search=${encodeURIComponent('100%')}`))).toEqual(['Alpha 100%']);
      expect(names(await list(`?search=${encodeURIComponent('%')}`))).toEqual(['Alpha 100%']);
      expect(names(await list('?search=_'))).toEqual(['Beta_1']);
      expect(names(await list(`?search=${encodeURIComponent('a_1')}`))).toEqual(['Beta_1']);
      expect((await list(`?search=${encodeURIComponent('\\')}`)).body.count).toBe(0);
      expect((await list('?search=')).body.count).toBe(5);
    });

    it('filters on isActive and isCurrent with true/1/false/0', async () => {
      expect(names(await list('?isActive=false'))).toEqual(['Beta_1']);
      expect(names(await list('?isActive=0'))).toEqual(['Beta_1']);
      expect((await list('?isActive=1')).body.count).toBe(4);
      expect(names(await list('?isCurrent=true'))).toEqual(['Gamma']);
      expect(names(await list('?isCurrent=1&isActive=true'))).toEqual(['Gamma']);
      expect((await list('?isCurrent=0')).body.count).toBe(4);
    });

    it.each([
      '?isActive=yes',
      '?isCurrent=TRUE',
      '?isCurrent=',
      '?pagination=no',
      '?page=0',
      '?page=-1',
      '?page=1.5',
      '?size=101',
      '?size=0',
      '?order=up',
      '?unknown=1',
      '?isActive=true&isActive=false',
    ])('refuses %s with 400 VALIDATION_FAILED', async (query) => {
      expectError(await list(query), 400, 'VALIDATION_FAILED');
    });

    it('pages with page and size; pagination=false returns every match on page 1', async () => {
      const first = await list('?size=2&order=asc');
      expect(first.body).toMatchObject({ count: 5, currentPage: 1, totalPage: 3 });
      expect(names(first)).toEqual(['Epsilon 1000', 'Alpha 100%']);
      const third = await list('?size=2&page=3&order=asc');
      expect(third.body).toMatchObject({ count: 5, currentPage: 3, totalPage: 3 });
      expect(names(third)).toEqual(['Delta']);
      const beyond = await list('?size=2&page=9');
      expect(beyond.body).toMatchObject({ count: 5, currentPage: 9, totalPage: 3, data: [] });
      const all = await list('?pagination=false&size=2&page=3');
      expect(all.body).toMatchObject({ count: 5, currentPage: 1, totalPage: 1 });
      expect(names(all)).toHaveLength(5);
      expect((await list('?size=100')).status).toBe(200);
    });

    it('shows every write in the very next list', async () => {
      const before = await list('?search=gamma');
      const gamma = (before.body.data as SessionDto[])[0]!;
      const newcomer = await created({ name: 'Gamma Two', isCurrent: true });
      expect(names(await list('?search=gamma'))).toEqual(expect.arrayContaining(['Gamma', 'Gamma Two']));
      expect(names(await list('?isCurrent=true'))).toEqual(['Gamma Two']);
      await patch(gamma.publicId, { name: 'Renamed' });
      expect(names(await list('?search=gamma'))).toEqual(['Gamma Two']);
      await patch(gamma.publicId, { isCurrent: true });
      expect(names(await list('?isCurrent=true'))).toEqual(['Renamed']);
      await remove(newcomer.publicId);
      expect(names(await list('?search=gamma'))).toEqual([]);
    });
  });
});
