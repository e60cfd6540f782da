import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, waitFor } from '@school/testing';
import { linkToken, type Mail, mailPart, mailsTo } from './support/mail.js';
import { AUTH_PREFIX, BOOTSTRAP_ADMIN, clientAddress, invitedPerson, signIn, type SignedIn, type Surface } from './support/people.js';
import { repositoryRoot } from './support/repository-root.js';
import { sharedSystem, sharedSystemEnvironment } from './support/shared-system.js';
import { stopProcess, type SystemView, untilReady } from '@school/system-harness';

/**
 * Contract §10 through the gateway: people and administrators see and end sessions; a new device is
 * announced by email. On the shared system, as an administrator of its own: it ends every session of
 * its administrator, and every other suite signs in as the bootstrap admin.
 */

const PASSWORD = 'Sess10ns!Amber-Rook';
const NEW_DEVICE_SUBJECT = 'New sign-in to your account';

interface Answer {
  status: number;
  body: { message: string; data: unknown; errorCode: string | null };
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
  sid: string;
}

interface SessionRow {
  id: string;
  deviceId: string | null;
  deviceType: string | null;
  deviceName: string | null;
  createdAt: string;
  lastUsedAt: string;
  current?: boolean;
}

type DeviceInfo = { deviceId?: string; deviceType?: string; deviceName?: string };

const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
const refusal = (errorCode: string) => expect.objectContaining({ errorCode, data: null });
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('sessions and devices (contract §10)', () => {
  let system: SystemView;
  let admin: Tokens;
  /** The suite's own administrator. */
  let administrator: SignedIn;

  async function call(method: string, path: string, token?: string, body?: unknown, base = system.gatewayUrl): Promise<Answer> {
    // A client address of its own per request (TRUST_PROXY=1): the ip throttles of contract §4 never refuse the test itself.
    const headers: Record<string, string> = {
      'x-forwarded-for': clientAddress(),
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    };
    const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  async function login(surface: Surface, email: string, password: string, deviceInfo?: DeviceInfo): Promise<Tokens> {
    const answer = await call('POST', `${AUTH_PREFIX[surface]}/login/email`, undefined, { email, password, ...(deviceInfo && { deviceInfo }) });
    expect(answer.status).toBe(200);
    const data = answer.body.data as { accessToken: string; refreshToken: string };
    return { ...data, sid: sidOf(data.accessToken) };
  }

  const sessionsOf = async (surface: Surface, token: string) => {
    const answer = await call('GET', `${AUTH_PREFIX[surface]}/sessions`, token);
    expect(answer.status).toBe(200);
    return answer.body.data as SessionRow[];
  };
  const me = (surface: Surface, token: string, base?: string) => call('GET', `${AUTH_PREFIX[surface]}/me`, token, undefined, base);
  const refresh = (surface: Surface, refreshToken: string) => call('POST', `${AUTH_PREFIX[surface]}/refresh`, undefined, { refreshToken });

  // Invitations are accepted through the reset route (10 per 15 minutes per ip): the run invites few people.
  const people: Record<Surface, { role: 'staff' | 'customer' }> = { admin: { role: 'staff' }, mobile: { role: 'customer' } };
  const person = (surface: Surface): Promise<SignedIn> => invitedPerson(system, admin.accessToken, people[surface].role, PASSWORD);
  /** A staff member (admin surface) and a customer (mobile surface), shared by the tests below. */
  const owners = {} as Record<Surface, SignedIn>;

  beforeAll(async () => {
    system = await sharedSystem();
    const bootstrap = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    administrator = await invitedPerson(system, bootstrap.accessToken, 'admin', PASSWORD);
    admin = await login('admin', administrator.email, PASSWORD);
    owners.admin = await person('admin');
    owners.mobile = await person('mobile');
  });

  describe.each(['admin', 'mobile'] as const)('the caller’s own sessions on the %s surface', (surface) => {
    const other: Surface = surface === 'admin' ? 'mobile' : 'admin';
    const prefix = AUTH_PREFIX[surface];
    const signInAgain = (deviceInfo?: DeviceInfo) => login(surface, owners[surface].email, PASSWORD, deviceInfo);

    it('lists the live sessions newest first with their devices, marking the current one; fields not sent are null', async () => {
      const phone = await signInAgain({ deviceId: 'phone-1', deviceType: 'ios', deviceName: 'Kim’s phone' });
      const bare = await signInAgain();

      const listed = await sessionsOf(surface, bare.accessToken);
      expect(listed.map((row) => row.id).slice(0, 2)).toEqual([bare.sid, phone.sid]);
      expect(listed.map((row) => row.id)).toContain(sidOf(owners[surface].accessToken));
      expect(listed[0]).toEqual({ id: bare.sid, deviceId: null, deviceType: null, deviceName: null, createdAt: expect.any(String), lastUsedAt: expect.any(String), current: true });
      expect(listed[1]).toEqual({
        id: phone.sid,
        deviceId: 'phone-1',
        deviceType: 'ios',
        deviceName: 'Kim’s phone',
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        current: false,
      });
      const created = listed.map((row) => Date.parse(row.createdAt));
      expect(created).toEqual([...created].sort((a, b) => b - a));

      // Another token's view marks its own session only.
      expect((await sessionsOf(surface, phone.accessToken)).filter((row) => row.current).map((row) => row.id)).toEqual([phone.sid]);
    });

    it('moves lastUsedAt on a refresh, keeping the session id and createdAt; other requests do not move it', async () => {
      const caller = await signInAgain();
      const session = await signInAgain({ deviceId: 'laptop' });
      const before = (await sessionsOf(surface, caller.accessToken)).find((row) => row.id === session.sid)!;
      const refreshed = await refresh(surface, session.refreshToken);
      expect(refreshed.status).toBe(200);
      expect(sidOf((refreshed.body.data as { accessToken: string }).accessToken)).toBe(session.sid);
      const after = (await sessionsOf(surface, caller.accessToken)).find((row) => row.id === session.sid)!;
      expect(after.createdAt).toBe(before.createdAt);
      expect(Date.parse(after.lastUsedAt)).toBeGreaterThan(Date.parse(before.lastUsedAt));
      const callerRow = async () => (await sessionsOf(surface, caller.accessToken)).find((row) => row.current)!.lastUsedAt;
      expect(await callerRow()).toBe(await callerRow());
    });

    it('refuses a token of the other surface and a missing token with 401 AUTH_UNAUTHENTICATED', async () => {
      const stranger = await login(other, owners[other].email, PASSWORD);
      for (const [method, path] of [
        ['GET', `${prefix}/sessions`],
        ['DELETE', `${prefix}/sessions`],
        ['DELETE', `${prefix}/sessions/${stranger.sid}`],
      ] as const) {
        expect(await call(method, path, stranger.accessToken)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
        expect(await call(method, path)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
      }
      expect((await me(other, stranger.accessToken)).status).toBe(200);
    });

    it('ends one session: its access and refresh tokens are refused; that id again, an unknown, a malformed or another person’s id is 404', async () => {
      const caller = await signInAgain();
      const ended = await signInAgain({ deviceId: 'old-phone' });
      const stranger = await login(other, owners[other].email, PASSWORD);

      const answer = await call('DELETE', `${prefix}/sessions/${ended.sid}`, caller.accessToken);
      expect(answer).toMatchObject({ status: 200, body: { data: null, errorCode: null } });
      expect(await me(surface, ended.accessToken)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
      expect(await refresh(surface, ended.refreshToken)).toMatchObject({ status: 401, body: refusal('AUTH_REFRESH_TOKEN_INVALID') });
      expect((await sessionsOf(surface, caller.accessToken)).map((row) => row.id)).not.toContain(ended.sid);

      for (const id of [ended.sid, '01890a5d-ac96-774b-bcce-b302099a8057', 'not-a-session', '%00', 'x'.repeat(300), stranger.sid]) {
        const missing = await call('DELETE', `${prefix}/sessions/${encodeURIComponent(id)}`, caller.accessToken);
        expect(missing).toMatchObject({ status: 404, body: { errorCode: 'SESSION_NOT_FOUND', message: 'Session not found', data: null } });
      }
      expect((await me(other, stranger.accessToken)).status).toBe(200);
      expect((await me(surface, caller.accessToken)).status).toBe(200);
    });

    it('ending the current session is a logout', async () => {
      const caller = await signInAgain();
      expect((await call('DELETE', `${prefix}/sessions/${caller.sid}`, caller.accessToken)).status).toBe(200);
      expect((await me(surface, caller.accessToken)).status).toBe(401);
      expect(await refresh(surface, caller.refreshToken)).toMatchObject({ status: 401, body: refusal('AUTH_REFRESH_TOKEN_INVALID') });
    });

    it('ends every other session, keeping the caller’s, and says how many', async () => {
      const first = await signInAgain({ deviceId: 'a' });
      const caller = await signInAgain({ deviceId: 'b' });
      const others = (await sessionsOf(surface, caller.accessToken)).length - 1;
      expect(others).toBeGreaterThanOrEqual(2);
      const answer = await call('DELETE', `${prefix}/sessions`, caller.accessToken);
      expect(answer).toMatchObject({ status: 200, body: { data: { ended: others }, errorCode: null } });
      expect((await me(surface, first.accessToken)).status).toBe(401);
      expect((await me(surface, owners[surface].accessToken)).status).toBe(401);
      expect(await refresh(surface, first.refreshToken)).toMatchObject({ status: 401, body: refusal('AUTH_REFRESH_TOKEN_INVALID') });
      expect((await me(surface, caller.accessToken)).status).toBe(200);
      expect(await sessionsOf(surface, caller.accessToken)).toEqual([expect.objectContaining({ id: caller.sid, current: true })]);
      expect((await call('DELETE', `${prefix}/sessions`, caller.accessToken)).body.data).toEqual({ ended: 0 });
    });
  });

  describe('an administrator and any account’s sessions', () => {
    it('lists an account’s live sessions newest first without `current`; staff and customers may not', async () => {
      const customer = owners.mobile;
      const older = await login('mobile', customer.email, PASSWORD);
      const later = await login('mobile', customer.email, PASSWORD, { deviceId: 'tablet', deviceType: 'android', deviceName: 'Tab' });
      const answer = await call('GET', `/api/users/${customer.publicId}/sessions`, admin.accessToken);
      expect(answer.status).toBe(200);
      const rows = answer.body.data as SessionRow[];
      expect(rows.map((row) => row.id).slice(0, 2)).toEqual([later.sid, older.sid]);
      expect(rows[0]).toEqual({ id: later.sid, deviceId: 'tablet', deviceType: 'android', deviceName: 'Tab', createdAt: expect.any(String), lastUsedAt: expect.any(String) });

      const staff = await login('admin', owners.admin.email, PASSWORD);
      for (const token of [staff.accessToken, later.accessToken]) {
        expect(await call('GET', `/api/users/${customer.publicId}/sessions`, token)).toMatchObject({ status: 403, body: refusal('PERMISSION_INSUFFICIENT') });
        expect(await call('DELETE', `/api/users/${customer.publicId}/sessions`, token)).toMatchObject({ status: 403, body: refusal('PERMISSION_INSUFFICIENT') });
      }
      expect((await me('mobile', later.accessToken)).status).toBe(200);
    });

    it('ends every session of an account, refusing their tokens, and says how many', async () => {
      const customer = owners.mobile;
      const first = await login('mobile', customer.email, PASSWORD, { deviceId: 'first' });
      const second = await login('mobile', customer.email, PASSWORD, { deviceId: 'second' });
      const live = ((await call('GET', `/api/users/${customer.publicId}/sessions`, admin.accessToken)).body.data as SessionRow[]).length;
      expect(live).toBeGreaterThanOrEqual(2);
      const answer = await call('DELETE', `/api/users/${customer.publicId}/sessions`, admin.accessToken);
      expect(answer).toMatchObject({ status: 200, body: { data: { ended: live }, errorCode: null } });
      expect((await me('mobile', first.accessToken)).status).toBe(401);
      expect((await me('mobile', second.accessToken)).status).toBe(401);
      expect(await refresh('mobile', second.refreshToken)).toMatchObject({ status: 401, body: refusal('AUTH_REFRESH_TOKEN_INVALID') });
      expect((await call('GET', `/api/users/${customer.publicId}/sessions`, admin.accessToken)).body.data).toEqual([]);
      expect((await me('admin', admin.accessToken)).status).toBe(200);
    });

    it('answers 404 USER_NOT_FOUND for an unknown, malformed or soft-deleted account; a banned one has no live sessions', async () => {
      for (const publicId of ['01890a5d-ac96-774b-bcce-b302099a8057', 'not-a-user']) {
        for (const method of ['GET', 'DELETE']) {
          expect(await call(method, `/api/users/${publicId}/sessions`, admin.accessToken)).toMatchObject({ status: 404, body: refusal('USER_NOT_FOUND') });
        }
      }
      const banned = await person('mobile');
      expect(((await call('GET', `/api/users/${banned.publicId}/sessions`, admin.accessToken)).body.data as SessionRow[]).length).toBe(1);
      expect((await call('PATCH', `/api/users/${banned.publicId}`, admin.accessToken, { banned: true })).status).toBe(200);
      expect(await call('GET', `/api/users/${banned.publicId}/sessions`, admin.accessToken)).toMatchObject({ status: 200, body: { data: [] } });

      const deleted = await person('mobile');
      expect((await call('DELETE', `/api/users/${deleted.publicId}`, admin.accessToken)).status).toBe(200);
      for (const method of ['GET', 'DELETE']) {
        expect(await call(method, `/api/users/${deleted.publicId}/sessions`, admin.accessToken)).toMatchObject({ status: 404, body: refusal('USER_NOT_FOUND') });
      }
    });

    it('ends the administrator’s own sessions too when they name their own account', async () => {
      const own = await login('admin', administrator.email, PASSWORD);
      const adminId = ((await me('admin', own.accessToken)).body.data as { publicId: string }).publicId;
      const answer = await call('DELETE', `/api/users/${adminId}/sessions`, own.accessToken);
      expect(answer.status).toBe(200);
      expect((answer.body.data as { ended: number }).ended).toBeGreaterThanOrEqual(2);
      expect((await me('admin', own.accessToken)).status).toBe(401);
      expect((await me('admin', admin.accessToken)).status).toBe(401);
      admin = await login('admin', administrator.email, PASSWORD);
    });
  });

  /** Another replica of `name` beside the system, with `env` over the system's variables for it; ready when this resolves. */
  async function startReplica(name: 'gateway' | 'identity', env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [join(repositoryRoot, `services/${name}/dist/main.js`)], {
      cwd: repositoryRoot,
      env: { ...(await sharedSystemEnvironment(name)), PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Ready, exited or silent too long, however slow the machine (the harness's own rule for a start).
    let lastOutputAt = Date.now();
    for (const output of [child.stdout, child.stderr]) output.on('data', () => (lastOutputAt = Date.now()));
    const failure = await untilReady(`${url}/health/ready`, {
      exited: () => (child.exitCode === null ? undefined : `it exited (code ${child.exitCode})`),
      lastOutputAt: () => lastOutputAt,
    });
    if (failure === undefined) return { child, url };
    await stopProcess(child);
    throw new Error(`the second ${name} did not become ready: ${failure}`);
  }

  describe('with a second gateway replica on the same Redis', () => {
    let replica: ChildProcess | undefined;
    let replicaUrl: string;

    beforeAll(async () => {
      ({ child: replica, url: replicaUrl } = await startReplica('gateway', { METRICS_PORT: String(await freePort()) }));
    });

    afterAll(() => replica && stopProcess(replica));

    it('refuses a session ended through one replica on the next request to the other', async () => {
      const owner = owners.mobile;
      const caller = await login('mobile', owner.email, PASSWORD);
      const phone = await login('mobile', owner.email, PASSWORD, { deviceId: 'replica-phone' });
      expect((await me('mobile', phone.accessToken, replicaUrl)).status).toBe(200);
      expect((await call('DELETE', `/api/mobile/auth/sessions/${phone.sid}`, caller.accessToken)).status).toBe(200);
      expect(await me('mobile', phone.accessToken, replicaUrl)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });

      // An administrator's "end them all" through the replica, refused on the first gateway.
      expect((await me('mobile', caller.accessToken)).status).toBe(200);
      expect((await call('DELETE', `/api/users/${owner.publicId}/sessions`, admin.accessToken, undefined, replicaUrl)).status).toBe(200);
      expect((await me('mobile', caller.accessToken)).status).toBe(401);
    });
  });

  /**
   * `count` calls of `work` (given 0..count-1), four at a time: racing, yet never five logins of one
   * email in flight for the per-email back-off to count as failures (contract §9).
   */
  async function inLanes<T>(count: number, work: (at: number) => Promise<T>): Promise<T[]> {
    const results: T[] = [];
    let next = 0;
    const lane = async () => {
      for (let at = next++; at < count; at = next++) results[at] = await work(at);
    };
    await Promise.all(Array.from({ length: 4 }, lane));
    return results;
  }

  const newDeviceMails = async (email: string) => (await mailsTo(system.mailDir, email)).filter((mail) => mail.subject === NEW_DEVICE_SUBJECT);

  const loginFromDevice = (email: string, deviceId: string, base?: string) =>
    call('POST', '/api/mobile/auth/login/email', undefined, { email, password: PASSWORD, deviceInfo: { deviceId, deviceName: `Device ${deviceId}` } }, base);

  /** Waits for `count` new-device emails to `email`, then for a later mail as a marker: once it is in, any further new-device email would be too. */
  async function expectNewDeviceMails(email: string, count: number): Promise<void> {
    await waitFor(async () => (await newDeviceMails(email)).length >= count, { timeoutMs: 20_000, intervalMs: 200, what: `${count} new-device emails to ${email}` });
    expect((await call('POST', '/api/auth/password/forgot', undefined, { email })).status).toBe(200);
    await linkToken(system.mailDir, email, '/reset-password');
    expect(await newDeviceMails(email)).toHaveLength(count);
  }

  describe('at most 50 live sessions per account', () => {
    const loginsInLanes = (count: number, email: string) => inLanes(count, () => login('mobile', email, PASSWORD));

    it('ends the least recently used session when a login passes 50, like a logout; the others stay', async () => {
      const owner = await person('mobile');
      const first = await login('mobile', owner.email, PASSWORD);
      const second = await login('mobile', owner.email, PASSWORD);
      const others = await loginsInLanes(47, owner.email);
      expect(await sessionsOf('mobile', first.accessToken)).toHaveLength(50);
      // A refresh is a use: `first` becomes the most recently used, `second` the least after the invitation's login.
      const refreshed = await refresh('mobile', first.refreshToken);
      expect(refreshed.status).toBe(200);
      const firstNow = refreshed.body.data as Tokens;

      const beyond = await login('mobile', owner.email, PASSWORD);
      expect(await me('mobile', owner.accessToken)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
      expect((await me('mobile', second.accessToken)).status).toBe(200);
      const further = await login('mobile', owner.email, PASSWORD);
      expect(await me('mobile', second.accessToken)).toMatchObject({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
      expect(await refresh('mobile', second.refreshToken)).toMatchObject({ status: 401, body: refusal('AUTH_REFRESH_TOKEN_INVALID') });

      for (const kept of [firstNow, beyond, further, others[0]!, others[46]!]) expect((await me('mobile', kept.accessToken)).status).toBe(200);
      const listed = (await sessionsOf('mobile', further.accessToken)).map((row) => row.id);
      expect(listed).toHaveLength(50);
      expect(listed).not.toContain(second.sid);
      expect(listed).not.toContain(sidOf(owner.accessToken));
    });

    it('never leaves more than 50 after 60 racing logins', async () => {
      const owner = await person('mobile');
      const signedIn = await loginsInLanes(60, owner.email);
      const listed = await call('GET', `/api/users/${owner.publicId}/sessions`, admin.accessToken);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(50);
      expect((await me('mobile', signedIn[59]!.accessToken)).status).toBe(200);
    });
  });

  describe('the new-device email', () => {
    async function mailNaming(email: string, text: string): Promise<Mail> {
      const named = async () => (await newDeviceMails(email)).find((candidate) => candidate.text.includes(text));
      return waitFor(named, { timeoutMs: 20_000, intervalMs: 200, what: `a new-device email to ${email} naming ${text}` });
    }

    it('arrives once per new device, naming it, its type and the time in UTC; a known device and the first login after an invitation send nothing', async () => {
      // invitedPerson's own login is the first after the invitation: no email, and its device ('' , none sent) is known from then on.
      const owner = await person('mobile');
      await login('mobile', owner.email, PASSWORD, { deviceId: 'pixel-7', deviceType: 'android', deviceName: 'Pixel of Kim' });
      await login('mobile', owner.email, PASSWORD, { deviceId: 'pixel-7', deviceType: 'android', deviceName: 'Pixel of Kim' });
      await login('mobile', owner.email, PASSWORD);
      const mail = await mailNaming(owner.email, 'Pixel of Kim');
      expect(mail.text).toContain('android');
      expect(mail.text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(mail.text).toContain('If this was not you');

      // Another new device, as a marker: once its email is in, any email of the logins above would be too.
      await login('mobile', owner.email, PASSWORD, { deviceId: 'ipad-2', deviceType: 'ios', deviceName: 'iPad of Kim' });
      await mailNaming(owner.email, 'iPad of Kim');
      await sleep(1_000);
      expect((await newDeviceMails(owner.email)).map((each) => /Pixel of Kim|iPad of Kim/.exec(each.text)?.[0]).sort()).toEqual(['Pixel of Kim', 'iPad of Kim'].sort());
    });

    it('goes to one account at most three times an hour: of 29 logins from new devices in a few seconds, all 200, three send one', async () => {
      const owner = await person('mobile');
      const statuses = await inLanes(29, async (at) => (await loginFromDevice(owner.email, `burst-${at}`)).status);
      expect(statuses).toEqual(Array.from({ length: 29 }, () => 200));
      await expectNewDeviceMails(owner.email, 3);
    });

    it('shows the device’s name and type quoted, cut to 64 characters, never as a link, in both parts of the mail', async () => {
      const owner = await person('mobile');
      const deviceName = `Reset password at https://evil.test/reset?u=1 ${'x'.repeat(40)}`;
      const deviceType = 'www.evil.test';
      await login('mobile', owner.email, PASSWORD, { deviceId: 'hostile', deviceType, deviceName });
      const mail = await mailNaming(owner.email, 'Reset password at');
      const shown = deviceName.slice(0, 64);

      const text = mailPart(mail, 'text/plain');
      expect(text).toMatch(new RegExp(`^Device name: ${escapeRegExp(`"${shown}"`)}\r?$`, 'm'));
      expect(text).toMatch(new RegExp(`^Device type: ${escapeRegExp(`"${deviceType}"`)}\r?$`, 'm'));
      expect(text).not.toContain(deviceName);

      const html = mailPart(mail, 'text/html');
      expect(html).not.toMatch(/<a[\s>]/i);
      for (const linkable of ['https://', 'evil.test', 'www.']) expect(html).not.toContain(linkable);
      const read = html.replaceAll('&#8288;', '').replaceAll('&amp;', '&');
      expect(read).toContain(`&quot;${shown}&quot;`);
      expect(read).toContain(`&quot;${deviceType}&quot;`);
    });

    it('sends nothing for the first login after a password reset, and again for the next new device', async () => {
      const owner = await person('admin');
      expect((await call('POST', '/api/auth/password/forgot', undefined, { email: owner.email })).status).toBe(200);
      const token = await linkToken(system.mailDir, owner.email, '/reset-password');
      const newPassword = 'Res3t!pass';
      expect((await call('POST', '/api/auth/password/reset', undefined, { token, password: newPassword })).status).toBe(200);

      await login('admin', owner.email, newPassword, { deviceId: 'after-reset', deviceName: 'Right after the reset' });
      await login('admin', owner.email, newPassword, { deviceId: 'later', deviceName: 'A later laptop' });
      await mailNaming(owner.email, 'A later laptop');
      await sleep(1_000);
      expect((await newDeviceMails(owner.email)).some((mail) => mail.text.includes('Right after the reset'))).toBe(false);
      expect(await newDeviceMails(owner.email)).toHaveLength(1);
    });
  });

  describe('with a second identity behind a second gateway', () => {
    const replicas: ChildProcess[] = [];
    let secondGateway: string;

    beforeAll(async () => {
      const identity = await startReplica('identity', {});
      replicas.push(identity.child);
      const gateway = await startReplica('gateway', { METRICS_PORT: String(await freePort()), IDENTITY_URL: identity.url });
      replicas.push(gateway.child);
      secondGateway = gateway.url;
    });

    afterAll(() => Promise.all(replicas.map(stopProcess)));

    /** Every other request through the second gateway, and so the second identity. */
    const alternately = (at: number) => (at % 2 === 0 ? system.gatewayUrl : secondGateway);

    it('caps the new-device emails at three while logins race through both identities', async () => {
      const owner = await person('mobile');
      const statuses = await inLanes(29, async (at) => (await loginFromDevice(owner.email, `both-${at}`, alternately(at))).status);
      expect(statuses).toEqual(Array.from({ length: 29 }, () => 200));
      await expectNewDeviceMails(owner.email, 3);
    });

    it('leaves at most 50 live sessions after 60 logins racing through both identities', async () => {
      const owner = await person('mobile');
      const statuses = await inLanes(
        60,
        async (at) => (await call('POST', '/api/mobile/auth/login/email', undefined, { email: owner.email, password: PASSWORD }, alternately(at))).status,
      );
      expect(statuses).toEqual(Array.from({ length: 60 }, () => 200));
      const listed = await call('GET', `/api/users/${owner.publicId}/sessions`, admin.accessToken);
      expect(listed.body.data).toHaveLength(50);
    });
  });
});
