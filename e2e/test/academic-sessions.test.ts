import { BOOTSTRAP_ADMIN, invitedPerson, signIn } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';
import { httpClient } from '@school/testing';

/** Issue 11, academic sessions (spec §4.6, table §3.2) through the gateway, as a client sees them. */

let system: SystemView;
let adminToken: string;

const PASSWORD = 'Pers0n!Cedar-Vault';
const PATH = '/api/academic-sessions';

const request = httpClient(() => system.gatewayUrl);
const call = (method: string, path: string, { body, token }: { body?: unknown; token?: string } = {}) => request(method, path, body, token);

const refusal = (errorCode: string) => ({ data: null, errorCode });

beforeAll(async () => {
  system = await sharedSystem();
  adminToken = (await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password)).accessToken;
}, 90_000);

describe('academic sessions through the gateway', () => {
  it('lets the admin create, list, hand over, retire and delete sessions', async () => {
    const first = await call('POST', PATH, { token: adminToken, body: { name: '2081/82', startDate: '2024-04-13', endDate: '2025-04-13', isCurrent: true } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ name: '2081/82', startDate: '2024-04-13', endDate: '2025-04-13', isCurrent: true, isActive: true });
    const firstId = (first.body.data as { publicId: string }).publicId;
    const second = await call('POST', PATH, { token: adminToken, body: { name: '2082/83', startDate: '2025-04-14', endDate: '2026-04-13' } });
    const secondId = (second.body.data as { publicId: string }).publicId;

    const listed = await call('GET', PATH, { token: adminToken });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ errorCode: null, count: 2, currentPage: 1, totalPage: 1 });
    expect((listed.body.data as { name: string }[]).map((dto) => dto.name)).toEqual(['2082/83', '2081/82']);

    const handover = await call('PATCH', `${PATH}/${secondId}`, { token: adminToken, body: { isCurrent: true } });
    expect(handover).toMatchObject({ status: 200, body: { data: { publicId: secondId, isCurrent: true } } });
    expect((await call('GET', `${PATH}?isCurrent=true`, { token: adminToken })).body.data).toMatchObject([{ publicId: secondId }]);

    expect(await call('PATCH', `${PATH}/${secondId}`, { token: adminToken, body: { isCurrent: false } })).toMatchObject({
      status: 409,
      body: refusal('ACADEMIC_SESSION_CURRENT_REQUIRED'),
    });
    expect(await call('DELETE', `${PATH}/${secondId}`, { token: adminToken })).toMatchObject({ status: 409, body: refusal('ACADEMIC_SESSION_IS_CURRENT') });
    expect(await call('POST', PATH, { token: adminToken, body: { name: '2081/82'.toUpperCase(), startDate: '2030-01-01', endDate: '2031-01-01' } })).toMatchObject({
      status: 409,
      body: refusal('ACADEMIC_SESSION_NAME_TAKEN'),
    });
    expect(await call('POST', PATH, { token: adminToken, body: { name: 'Term', startDate: '2030-01-01', endDate: '2030-01-01' } })).toMatchObject({
      status: 409,
      body: refusal('ACADEMIC_SESSION_DATES_INVALID'),
    });
    expect(await call('PATCH', `${PATH}/${firstId}`, { token: adminToken, body: { endDate: '2024-04-13' } })).toMatchObject({
      status: 409,
      body: refusal('ACADEMIC_SESSION_DATES_INVALID'),
    });
    expect(await call('PATCH', `${PATH}/${firstId}`, { token: adminToken, body: { startDate: '2025-02-30' } })).toMatchObject({ status: 400, body: refusal('VALIDATION_FAILED') });
    expect(await call('GET', `${PATH}?isActive=yes`, { token: adminToken })).toMatchObject({ status: 400, body: refusal('VALIDATION_FAILED') });

    expect((await call('PATCH', `${PATH}/${firstId}`, { token: adminToken, body: { isActive: false } })).body.data).toMatchObject({ isActive: false });
    expect((await call('GET', `${PATH}?isActive=false`, { token: adminToken })).body.data).toMatchObject([{ publicId: firstId }]);

    const deleted = await call('DELETE', `${PATH}/${firstId}`, { token: adminToken });
    expect(deleted).toMatchObject({ status: 200, body: { data: null, errorCode: null } });
    expect(await call('DELETE', `${PATH}/${firstId}`, { token: adminToken })).toMatchObject({ status: 404, body: refusal('ACADEMIC_SESSION_NOT_FOUND') });
    expect(await call('PATCH', `${PATH}/not-a-uuid`, { token: adminToken, body: {} })).toMatchObject({ status: 404, body: refusal('ACADEMIC_SESSION_NOT_FOUND') });
    expect((await call('GET', PATH, { token: adminToken })).body.count).toBe(1);
  });

  it('keeps exactly one current session under parallel handovers', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      const answer = await call('POST', PATH, { token: adminToken, body: { name: `Parallel ${index}`, startDate: `${2100 + index}-01-01`, endDate: `${2100 + index}-12-31` } });
      ids.push((answer.body.data as { publicId: string }).publicId);
    }
    const answers = await Promise.all(ids.map((id) => call('PATCH', `${PATH}/${id}`, { token: adminToken, body: { isCurrent: true } })));
    for (const answer of answers) expect(answer.status === 200 || answer.body.errorCode === 'ACADEMIC_SESSION_CURRENT_CONFLICT').toBe(true);
    expect((await call('GET', `${PATH}?isCurrent=true`, { token: adminToken })).body.count).toBe(1);
  });

  it('refuses staff and customers with 403 PERMISSION_INSUFFICIENT and anonymous callers with 401', async () => {
    const [staff, customer] = [
      (await invitedPerson(system, adminToken, 'staff', PASSWORD)).accessToken,
      (await invitedPerson(system, adminToken, 'customer', PASSWORD)).accessToken,
    ];
    for (const token of [staff, customer]) {
      expect(await call('GET', PATH, { token })).toMatchObject({ status: 403, body: refusal('PERMISSION_INSUFFICIENT') });
      expect(await call('POST', PATH, { token, body: { name: 'Nope', startDate: '2030-01-01', endDate: '2031-01-01' } })).toMatchObject({
        status: 403,
        body: refusal('PERMISSION_INSUFFICIENT'),
      });
      expect(await call('PATCH', `${PATH}/01926f4e-0000-7000-8000-000000000000`, { token, body: {} })).toMatchObject({ status: 403, body: refusal('PERMISSION_INSUFFICIENT') });
      expect(await call('DELETE', `${PATH}/01926f4e-0000-7000-8000-000000000000`, { token })).toMatchObject({ status: 403, body: refusal('PERMISSION_INSUFFICIENT') });
    }
    expect(await call('GET', PATH)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
  });
});
