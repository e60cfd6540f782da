import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { referenceDataSuite, type HttpAnswer, type ReferenceDataInstance, type ReferenceDataSuite } from './support/reference-data-app.js';

const PATH = '/api/academic-sessions';

/** Table §3.2, two concurrent handovers: one wins, the other 409; never two current rows, never zero. */
describe('academic sessions: concurrent handovers of "current"', () => {
  let suite: ReferenceDataSuite;
  let replicas: ReferenceDataInstance[];
  let admin: string;

  const outcome = (answer: HttpAnswer) => (answer.body.errorCode ? `${answer.status} ${answer.body.errorCode}` : String(answer.status));
  /**
   * Outcomes other than the winner's, the loser's 409 and the 503 (with Retry-After, from the shared
   * error mapper) that the contract allows a saturated service: a loaded machine may answer some of
   * the burst so, and the rule under test is the rows left, not the machine's speed.
   */
  const unexpected = (outcomes: string[], success: string) =>
    outcomes.filter((value) => ![success, '409 ACADEMIC_SESSION_CURRENT_CONFLICT', '503 SERVICE_UNAVAILABLE'].includes(value));
  const currentCount = () => suite.prisma.academicSession.count({ where: { isCurrent: true } });

  beforeAll(async () => {
    suite = await referenceDataSuite('rd_sessions_race');
    // Two replicas on one database: the races are between processes, as in production.
    replicas = [await suite.start(), await suite.start()];
    admin = await suite.token('admin');
  });

  afterAll(() => suite?.close());

  beforeEach(async () => {
    await suite.prisma.academicSession.deleteMany();
  });

  const createMany = async (count: number, currentFirst: boolean) => {
    const publicIds: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const body = { name: `Race ${index}`, startDate: `${2100 + index}-01-01`, endDate: `${2100 + index}-12-31`, isCurrent: currentFirst && index === 0 };
      const answer = await replicas[0]!.request('POST', PATH, body, admin);
      expect(answer.status).toBe(201);
      publicIds.push((answer.body.data as { publicId: string }).publicId);
    }
    return publicIds;
  };

  it('50 parallel PATCH isCurrent true on different sessions leave exactly one current row', async () => {
    const publicIds = await createMany(51, true);
    const answers = await Promise.all(publicIds.slice(1).map((publicId, index) => replicas[index % 2]!.request('PATCH', `${PATH}/${publicId}`, { isCurrent: true }, admin)));
    const outcomes = answers.map(outcome);
    expect(unexpected(outcomes, '200')).toEqual([]);
    expect(outcomes).toContain('200');
    expect(await currentCount()).toBe(1);
    // The row left current is one whose PATCH answered 200.
    const current = await suite.prisma.academicSession.findFirstOrThrow({ where: { isCurrent: true } });
    const winners = publicIds.slice(1).filter((_, index) => outcomes[index] === '200');
    expect(winners).toContain(current.publicId);
  });

  it('50 parallel PATCH isCurrent true with no current row yet leave exactly one', async () => {
    const publicIds = await createMany(50, false);
    const answers = await Promise.all(publicIds.map((publicId, index) => replicas[index % 2]!.request('PATCH', `${PATH}/${publicId}`, { isCurrent: true }, admin)));
    expect(unexpected(answers.map(outcome), '200')).toEqual([]);
    expect(await currentCount()).toBe(1);
  });

  it('10 parallel POSTs with isCurrent true leave exactly one current row', async () => {
    await createMany(1, true);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        replicas[index % 2]!.request('POST', PATH, { name: `Parallel ${index}`, startDate: `${2200 + index}-01-01`, endDate: `${2200 + index}-12-31`, isCurrent: true }, admin),
      ),
    );
    const outcomes = answers.map(outcome);
    expect(unexpected(outcomes, '201')).toEqual([]);
    expect(outcomes).toContain('201');
    expect(await currentCount()).toBe(1);
    // A refused POST wrote nothing.
    expect(await suite.prisma.academicSession.count()).toBe(1 + outcomes.filter((value) => value === '201').length);
  });

  it('10 parallel POSTs with isCurrent true and no current row yet leave exactly one', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        replicas[index % 2]!.request('POST', PATH, { name: `Fresh ${index}`, startDate: `${2300 + index}-01-01`, endDate: `${2300 + index}-12-31`, isCurrent: true }, admin),
      ),
    );
    expect(unexpected(answers.map(outcome), '201')).toEqual([]);
    expect(await currentCount()).toBe(1);
  });

  it('a handover racing an unset of the current row and a delete never leaves zero or two current rows', async () => {
    const [current, ...others] = await createMany(6, true);
    const answers = await Promise.all([
      replicas[0]!.request('PATCH', `${PATH}/${current}`, { isCurrent: false }, admin),
      replicas[1]!.request('DELETE', `${PATH}/${current}`, undefined, admin),
      ...others.map((publicId, index) => replicas[index % 2]!.request('PATCH', `${PATH}/${publicId}`, { isCurrent: true }, admin)),
      ...others.slice(0, 2).map((publicId) => replicas[1]!.request('DELETE', `${PATH}/${publicId}`, undefined, admin)),
    ]);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(await currentCount()).toBe(1);
  });

  it('the same name created twice at once: one 201, one 409 ACADEMIC_SESSION_NAME_TAKEN', async () => {
    const answers = await Promise.all(
      ['Twin', 'TWIN', 'twin', 'Twin'].map((name, index) => replicas[index % 2]!.request('POST', PATH, { name, startDate: '2400-01-01', endDate: '2400-12-31' }, admin)),
    );
    expect(answers.map(outcome).sort()).toEqual(['201', '409 ACADEMIC_SESSION_NAME_TAKEN', '409 ACADEMIC_SESSION_NAME_TAKEN', '409 ACADEMIC_SESSION_NAME_TAKEN']);
  });

  it('two PATCHes moving opposite ends at once never store an inverted range', async () => {
    const [publicId] = await createMany(1, false);
    for (let round = 0; round < 5; round += 1) {
      await suite.prisma.academicSession.update({ where: { publicId: publicId! }, data: { startDate: new Date('2100-01-01'), endDate: new Date('2100-12-31') } });
      const answers = await Promise.all([
        replicas[0]!.request('PATCH', `${PATH}/${publicId}`, { startDate: '2100-10-01' }, admin),
        replicas[1]!.request('PATCH', `${PATH}/${publicId}`, { endDate: '2100-06-01' }, admin),
      ]);
      expect(answers.map(outcome).sort()).toEqual(['200', '409 ACADEMIC_SESSION_DATES_INVALID']);
      const row = await suite.prisma.academicSession.findUniqueOrThrow({ where: { publicId: publicId! } });
      expect(row.endDate > row.startDate).toBe(true);
    }
  });
});
