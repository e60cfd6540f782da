import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuditAction } from '@school/contracts';
import { type AuditedAnswer, auditedAnswer, auditedHeaders, auditEntriesIn, type RecordedAuditEntry, unexpectedInBurst } from '@school/messaging/testing';
import { type ReferenceDataInstance, referenceDataSuite, type ReferenceDataSuite } from './support/reference-data-app.js';

const CLIENT_IP = '198.51.100.23';
const USER_AGENT = 'audit-test/1.0 (reference-data)';

type Answer = AuditedAnswer;

describe('audit entries of reference-data (contract §13): one per administrator write, in its transaction', () => {
  let suite: ReferenceDataSuite;
  let app: ReferenceDataInstance;
  let adminToken: string;
  let adminId: string;

  beforeAll(async () => {
    suite = await referenceDataSuite('reference_data_audit');
    app = await suite.start();
    adminId = randomUUID();
    adminToken = await suite.issuer.sign({ sub: adminId, sid: randomUUID(), role: 'admin' });
  });

  afterAll(async () => {
    await suite?.close();
  });

  async function call(method: string, path: string, body?: unknown, token = adminToken): Promise<Answer> {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        ...auditedHeaders(suite.forwardedFrom(CLIENT_IP), USER_AGENT),
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return auditedAnswer(response);
  }

  const entries = () => auditEntriesIn(suite.prisma, suite.db.schema);
  const entriesOf = async (action: AuditAction, targetId?: string | null) =>
    (await entries()).filter((entry) => entry.action === action && (targetId === undefined || entry.target?.id === targetId));

  function expectFrom(entry: RecordedAuditEntry | undefined, answer: Answer): void {
    expect(answer.requestId).toEqual(expect.any(String));
    expect(entry).toMatchObject({ actor: { publicId: adminId, role: 'admin' }, ip: CLIENT_IP, userAgent: USER_AGENT, requestId: answer.requestId });
  }

  const publicIdOf = (answer: Answer) => (answer.body.data as { publicId: string }).publicId;
  const idOf = (answer: Answer) => (answer.body.data as { id: number }).id;

  it('records academic session create, update and delete with the fields they changed', async () => {
    const created = await call('POST', '/api/academic-sessions', { name: 'Audit 2090', startDate: '2090-01-01', endDate: '2090-12-31' });
    expect(created.status).toBe(201);
    const publicId = publicIdOf(created);
    const [create] = await entriesOf('academic_session.create', publicId);
    expect(create).toMatchObject({
      target: { type: 'academic_session', id: publicId },
      changes: { name: { from: null, to: 'Audit 2090' }, startDate: { from: null, to: '2090-01-01' }, endDate: { from: null, to: '2090-12-31' } },
    });
    expectFrom(create, created);

    const updated = await call('PATCH', `/api/academic-sessions/${publicId}`, { name: 'Audit 2090 renamed', isActive: true });
    expect(updated.status).toBe(200);
    const [update] = await entriesOf('academic_session.update', publicId);
    expect(update?.changes).toEqual({ name: { from: 'Audit 2090', to: 'Audit 2090 renamed' } });
    expectFrom(update, updated);

    const removed = await call('DELETE', `/api/academic-sessions/${publicId}`);
    expect(removed.status).toBe(200);
    const [deletion] = await entriesOf('academic_session.delete', publicId);
    expect(deletion?.changes).toMatchObject({ name: { from: 'Audit 2090 renamed', to: null } });
    expectFrom(deletion, removed);
  });

  it('records province, district and municipality writes, a public `code` shown as it is', async () => {
    const province = await call('POST', '/api/lookups/provinces', { name: 'Audit Province', code: 'AP-1' });
    expect(province.status).toBe(201);
    const provinceId = publicIdOf(province);
    expect((await entriesOf('province.create', provinceId))[0]?.changes).toMatchObject({ name: { from: null, to: 'Audit Province' }, code: { from: null, to: 'AP-1' } });

    const district = await call('POST', '/api/lookups/districts', { name: 'Audit District', provinceId: idOf(province) });
    expect(district.status).toBe(201);
    const districtId = publicIdOf(district);
    expect((await entriesOf('district.create', districtId))[0]?.changes).toMatchObject({ provinceId: { from: null, to: idOf(province) } });

    const municipality = await call('POST', '/api/lookups/municipalities', { name: 'Audit Municipality', districtId: idOf(district), type: 'municipality', wardCount: 9 });
    expect(municipality.status).toBe(201);
    const municipalityId = publicIdOf(municipality);
    expect((await entriesOf('municipality.create', municipalityId))[0]?.changes).toMatchObject({ wardCount: { from: null, to: 9 } });

    const renamed = await call('PATCH', `/api/lookups/municipalities/${municipalityId}`, { name: 'Audit Municipality 2' });
    expect(renamed.status).toBe(200);
    expect((await entriesOf('municipality.update', municipalityId))[0]?.changes).toEqual({ name: { from: 'Audit Municipality', to: 'Audit Municipality 2' } });

    expect((await call('PATCH', `/api/lookups/provinces/${provinceId}`, { isActive: false })).status).toBe(200);
    expect((await entriesOf('province.update', provinceId))[0]?.changes).toEqual({ isActive: { from: true, to: false } });

    for (const [path, id, action] of [
      ['/api/lookups/municipalities', municipalityId, 'municipality.delete'],
      ['/api/lookups/districts', districtId, 'district.delete'],
      ['/api/lookups/provinces', provinceId, 'province.delete'],
    ] as const) {
      const answer = await call('DELETE', `${path}/${id}`);
      expect(answer.status).toBe(200);
      const [deletion] = await entriesOf(action, id);
      expect(deletion?.target).toEqual({ type: action.split('.')[0], id });
      expectFrom(deletion, answer);
    }
  });

  it('records the school profile update with a null target id, from null the first time', async () => {
    const province = await call('POST', '/api/lookups/provinces', { name: 'Profile Province' });
    const district = await call('POST', '/api/lookups/districts', { name: 'Profile District', provinceId: idOf(province) });
    const municipality = await call('POST', '/api/lookups/municipalities', { name: 'Profile Municipality', districtId: idOf(district), type: 'municipality' });
    const profile = { name: 'Audit School', provinceId: idOf(province), districtId: idOf(district), municipalityId: idOf(municipality) };
    const first = await call('PUT', '/api/school-profile', profile);
    expect(first.status).toBe(200);
    const second = await call('PUT', '/api/school-profile', { ...profile, name: 'Audit School 2' });
    expect(second.status).toBe(200);
    const recorded = await entriesOf('school_profile.update');
    expect(recorded).toHaveLength(2);
    expect(recorded[0]).toMatchObject({ target: { type: 'school_profile', id: null }, changes: { name: { from: null, to: 'Audit School' } } });
    expect(recorded[1]?.changes).toEqual({ name: { from: 'Audit School', to: 'Audit School 2' } });
    expectFrom(recorded[1], second);
  });

  it('records nothing for a refused write: 400, 403, 404, 409', async () => {
    const taken = await call('POST', '/api/lookups/provinces', { name: 'Taken Province' });
    expect(taken.status).toBe(201);
    const staffToken = await suite.token('staff');
    const before = (await entries()).length;
    expect((await call('POST', '/api/lookups/provinces', { name: '' })).status).toBe(400);
    expect((await call('POST', '/api/lookups/provinces', { name: 'Staff Province' }, staffToken)).status).toBe(403);
    expect((await call('PATCH', `/api/lookups/provinces/${randomUUID()}`, { name: 'Nowhere' })).status).toBe(404);
    expect((await call('POST', '/api/lookups/provinces', { name: 'Taken Province' })).status).toBe(409);
    expect((await call('POST', '/api/academic-sessions', { name: 'Backwards', startDate: '2091-12-31', endDate: '2091-01-01' })).status).toBe(409);
    expect(await entries()).toHaveLength(before);
  });

  it('records exactly one entry for each of 50 parallel writes, and none for one answered 503', async () => {
    const before = (await entriesOf('academic_session.create')).length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, at) => call('POST', '/api/academic-sessions', { name: `Parallel ${at}`, startDate: '2092-01-01', endDate: '2092-12-31' })),
    );
    expect(unexpectedInBurst(answers, 201)).toEqual([]);
    const created = new Set(answers.filter((answer) => answer.status === 201).map(publicIdOf));
    expect(created.size).toBeGreaterThan(0);
    const all = await entriesOf('academic_session.create');
    expect(all).toHaveLength(before + created.size);
    expect(
      all
        .filter((entry) => created.has(entry.target?.id ?? ''))
        .map((entry) => entry.target?.id)
        .sort(),
    ).toEqual([...created].sort());
  });
});
