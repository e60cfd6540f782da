import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createAcademicSessionBody, type ErrorCode, updateAcademicSessionBody } from '@school/contracts';
import { AcademicSessionsRepository } from '../../src/academic-sessions/academic-sessions.repository.js';
import { AcademicSessionsService } from '../../src/academic-sessions/academic-sessions.service.js';
import { referenceDataMedium, type ReferenceDataMedium } from './kit.js';

/** The rules of academic sessions (spec §2.7, §4.6, table §3.2) against the use case; their wire is academic-sessions.test.ts. */
describe('academic sessions: the use case over its repository (medium)', () => {
  let world: ReferenceDataMedium;
  let sessions: AcademicSessionsService;
  let year = 2000;

  /** A valid body, as the route's schema leaves it, with a name and a year of its own. */
  const body = (overrides: Record<string, unknown> = {}) => {
    year += 1;
    return createAcademicSessionBody.parse({ name: `Session ${year}`, startDate: `${year}-04-14`, endDate: `${year + 1}-04-13`, ...overrides });
  };
  const create = (overrides: Record<string, unknown> = {}) => sessions.create(body(overrides));
  const update = (publicId: string, changes: Record<string, unknown>) => sessions.update(publicId, updateAcademicSessionBody.parse(changes));
  const refused = (work: Promise<unknown>, code: ErrorCode) => expect(work).rejects.toMatchObject({ name: 'AppError', code });
  const stored = (publicId: string) => world.prisma.academicSession.findUnique({ where: { publicId } });
  const current = async () => (await world.prisma.academicSession.findMany({ where: { isCurrent: true } })).map((row) => row.publicId);
  const count = () => world.prisma.academicSession.count();

  beforeAll(async () => {
    world = await referenceDataMedium('rd_sessions_medium', [AcademicSessionsRepository, AcademicSessionsService]);
    sessions = world.get(AcademicSessionsService);
  });

  afterAll(() => world?.close());

  beforeEach(async () => {
    await world.prisma.academicSession.deleteMany();
  });

  describe('names are unique whatever their letter case (spec §4.6)', () => {
    it('refuses a taken name in another case on create, and writes nothing', async () => {
      await create({ name: 'Term A' });
      await refused(create({ name: 'TERM a' }), 'ACADEMIC_SESSION_NAME_TAKEN');
      await refused(create({ name: ' term a ' }), 'ACADEMIC_SESSION_NAME_TAKEN');
      expect(await count()).toBe(1);
    });

    it('refuses renaming to a name another row holds, in any case, and changes nothing', async () => {
      await create({ name: 'Holder' });
      const other = await create({ name: 'Other' });
      await refused(update(other.publicId, { name: 'hOLDER' }), 'ACADEMIC_SESSION_NAME_TAKEN');
      expect((await stored(other.publicId))?.name).toBe('Other');
    });

    it('allows a row its own name in another case, and a deleted name again', async () => {
      const row = await create({ name: 'Case' });
      expect(await update(row.publicId, { name: 'CASE' })).toMatchObject({ name: 'CASE' });
      await sessions.remove(row.publicId);
      expect((await create({ name: 'case' })).name).toBe('case');
    });

    it('with isCurrent true and a taken name changes nothing: the incumbent stays current', async () => {
      const incumbent = await create({ isCurrent: true, name: 'Taken' });
      await refused(create({ isCurrent: true, name: 'taken' }), 'ACADEMIC_SESSION_NAME_TAKEN');
      expect(await current()).toEqual([incumbent.publicId]);
    });
  });

  describe('one current session, handed over (spec §4.6 rule 2, table §3.2)', () => {
    it('create with isCurrent true unsets the incumbent and makes the new row current', async () => {
      const first = await create({ isCurrent: true });
      expect(first.isCurrent).toBe(true);
      const second = await create({ isCurrent: true });
      expect(second.isCurrent).toBe(true);
      expect(await current()).toEqual([second.publicId]);
    });

    it('update isCurrent true hands over from the incumbent', async () => {
      const incumbent = await create({ isCurrent: true });
      const next = await create();
      expect(await update(next.publicId, { isCurrent: true })).toMatchObject({ publicId: next.publicId, isCurrent: true });
      expect(await current()).toEqual([next.publicId]);
      expect((await stored(incumbent.publicId))?.isCurrent).toBe(false);
    });

    it('update isCurrent true with none current makes it current; on the current row it is a no-op', async () => {
      const row = await create();
      expect(await update(row.publicId, { isCurrent: true })).toMatchObject({ isCurrent: true });
      expect(await update(row.publicId, { isCurrent: true })).toMatchObject({ isCurrent: true });
      expect(await current()).toEqual([row.publicId]);
    });

    it('refuses isCurrent false on the only current row before any write, whatever else the update holds', async () => {
      const row = await create({ isCurrent: true, name: 'Current' });
      const before = await stored(row.publicId);
      await refused(update(row.publicId, { isCurrent: false, name: 'Renamed', isActive: false }), 'ACADEMIC_SESSION_CURRENT_REQUIRED');
      expect(await stored(row.publicId)).toEqual(before);
    });

    it('isCurrent false on a row that is not current changes nothing else', async () => {
      const incumbent = await create({ isCurrent: true });
      const other = await create();
      expect(await update(other.publicId, { isCurrent: false })).toMatchObject({ isCurrent: false });
      expect(await current()).toEqual([incumbent.publicId]);
    });

    it('retires and reactivates with isActive, the current session included', async () => {
      const row = await create({ isCurrent: true });
      expect(await update(row.publicId, { isActive: false })).toMatchObject({ isActive: false, isCurrent: true });
      expect(await update(row.publicId, { isActive: true })).toMatchObject({ isActive: true, isCurrent: true });
    });
  });

  describe('dates: the start before the end (spec §4.6 rule 1)', () => {
    it('refuses an inverted or zero-length range on create', async () => {
      await refused(create({ startDate: '2025-01-02', endDate: '2025-01-01' }), 'ACADEMIC_SESSION_DATES_INVALID');
      await refused(create({ startDate: '2025-01-01', endDate: '2025-01-01' }), 'ACADEMIC_SESSION_DATES_INVALID');
      expect(await count()).toBe(0);
    });

    it('checks an update carrying one end against the stored other end, and changes nothing when refused', async () => {
      const row = await create({ startDate: '2030-04-14', endDate: '2031-04-13' });
      for (const changes of [
        { startDate: '2031-04-13' },
        { startDate: '2031-05-01' },
        { endDate: '2030-04-14' },
        { endDate: '2030-01-01', name: 'Not renamed' },
        { startDate: '2032-01-01', endDate: '2031-12-31' },
      ]) {
        await refused(update(row.publicId, changes), 'ACADEMIC_SESSION_DATES_INVALID');
      }
      const after = await stored(row.publicId);
      expect({ name: after?.name, start: after?.startDate.toISOString().slice(0, 10), end: after?.endDate.toISOString().slice(0, 10) }).toEqual({
        name: row.name,
        start: '2030-04-14',
        end: '2031-04-13',
      });
      expect(await update(row.publicId, { endDate: '2030-04-15' })).toMatchObject({ startDate: '2030-04-14', endDate: '2030-04-15' });
      expect(await update(row.publicId, { startDate: '2029-01-01' })).toMatchObject({ startDate: '2029-01-01', endDate: '2030-04-15' });
    });
  });

  describe('delete (spec §2.7, table §3.2)', () => {
    it('deletes a session that is not current for good: it is then not found', async () => {
      const row = await create();
      await sessions.remove(row.publicId);
      expect(await count()).toBe(0);
      await refused(sessions.remove(row.publicId), 'ACADEMIC_SESSION_NOT_FOUND');
      await refused(update(row.publicId, { isActive: true }), 'ACADEMIC_SESSION_NOT_FOUND');
    });

    it('refuses to delete the current session', async () => {
      const row = await create({ isCurrent: true });
      await refused(sessions.remove(row.publicId), 'ACADEMIC_SESSION_IS_CURRENT');
      expect(await current()).toEqual([row.publicId]);
    });
  });
});
