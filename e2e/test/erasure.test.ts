import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { SERVICES } from '@school/config';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { httpClient, scaled, waitFor } from '@school/testing';
import { startS3, type TestS3 } from '../../services/media/test/support/s3-server.js';
import { linkToken, mailsTo } from './support/mail.js';
import { clientAddress, invitedPerson } from './support/people.js';

/**
 * Contract §11, the erasure, through the gateway on a system of the suite's own (it stops media and
 * reads every schema), once per storage driver: identity's one transaction at once; reference-data
 * within 10 s; media and feedback within 60 s through their inboxes (media also after being down);
 * one goodbye email; and then no personal field of the account left in any service's database.
 */

const ADMIN = { email: 'admin@example.com', password: 'Admin123!' };
const PASSWORD = 'Erasure!Kettle-42';
const GOODBYE = 'Your account has been deleted';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

interface Row {
  id: number;
  publicId: string;
}

/** A person with everything an account can leave behind: address, phone, a named device, files, feedback of both kinds. */
interface Person {
  publicId: string;
  email: string;
  name: string;
  phone: string;
  deviceName: string;
  accessToken: string;
  refreshToken: string;
  municipality: Row;
  files: { privateKey: string; publicKey: string; signedUrl: string; publicUrl: string };
  feedbackSubject: string;
  guestSubject: string;
}

/** When a log line (pino JSON, ISO time) was written; a line that is not JSON counts as now. */
function loggedAt(line: string): number {
  try {
    return Date.parse(String((JSON.parse(line) as { time?: string }).time));
  } catch {
    return Date.now();
  }
}

const hex = () => randomBytes(4).toString('hex');
const phone = () => `+97798${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describe.each(['local', 's3'] as const)('erasure of an account (contract §11), %s storage', (driver) => {
  let system: RunningSystem;
  let s3: TestS3 | undefined;
  let admin: string;
  let db: pg.Client;

  beforeAll(async () => {
    s3 = driver === 's3' ? await startS3(`erasure-${hex()}`) : undefined;
    system = await startSystem({ label: `erasure-${driver}`, env: { TRUST_PROXY: '1' }, ...(s3 && { processEnv: { media: s3.env } }) });
    admin = (await login('/api/auth/login/email', ADMIN.email, ADMIN.password)).accessToken;
    db = new pg.Client({ connectionString: system.databaseUrl });
    await db.connect();
  }, scaled(180_000));

  afterAll(async () => {
    await db?.end();
    await system?.shutdown();
    await s3?.close();
  });

  const request = httpClient(() => system.gatewayUrl, { headers: () => ({ 'x-forwarded-for': clientAddress() }) });
  const call = (method: string, path: string, body?: unknown, token: string | null = admin) => request(method, path, body, token);

  async function login(path: string, email: string, password: string, deviceInfo?: object): Promise<{ accessToken: string; refreshToken: string; user: { publicId: string } }> {
    const answer = await call('POST', path, { email, password, ...(deviceInfo && { deviceInfo }) }, null);
    expect(answer.status).toBe(200);
    return answer.body.data as { accessToken: string; refreshToken: string; user: { publicId: string } };
  }

  const erase = (publicId: string) => call('POST', `/api/users/${publicId}/erasure`);

  async function upload(token: string, uploadType: string, bytes: Buffer, filename: string, type: string): Promise<string> {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    const response = await fetch(`${system.gatewayUrl}/api/mobile/uploads?uploadType=${uploadType}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': clientAddress() },
      body,
    });
    const answer = (await response.json()) as { data: { relativePath: string; url: string } };
    expect(response.status).toBe(200);
    return answer.data.relativePath;
  }

  async function chain(): Promise<{ province: Row; district: Row; municipality: Row }> {
    const province = (await call('POST', '/api/lookups/provinces', { name: `Province ${hex()}` })).body.data as Row;
    const district = (await call('POST', '/api/lookups/districts', { provinceId: province.id, name: `District ${hex()}` })).body.data as Row;
    const municipality = (await call('POST', '/api/lookups/municipalities', { districtId: district.id, name: `Town ${hex()}`, type: 'municipality' })).body.data as Row;
    return { province, district, municipality };
  }

  /** A customer created by the admin with a phone and an address, invited, signed in on a named device, with files and feedback. */
  async function person(): Promise<Person> {
    const place = await chain();
    const email = `erasable.${hex()}@example.com`;
    const name = `Erin Erasable ${hex()}`;
    const number = phone();
    const address = { provinceId: place.province.id, districtId: place.district.id, municipalityId: place.municipality.id, ward: 3, street: `Lane ${hex()}` };
    const created = await call('POST', '/api/users', { email, name, role: 'customer', phone: number, address });
    expect(created.status).toBe(201);
    const token = await linkToken(system.mailDir, email, '/accept-invitation');
    expect((await call('POST', '/api/mobile/auth/password/reset', { token, password: PASSWORD }, null)).status).toBe(200);
    const deviceName = `Erin phone ${hex()}`;
    const session = await login('/api/mobile/auth/login/email', email, PASSWORD, { deviceId: `device-${hex()}`, deviceType: 'ios', deviceName });

    const privateKey = await upload(session.accessToken, 'file', PDF, 'notes.pdf', 'application/pdf');
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 9, g: 99, b: 199 } } })
      .png()
      .toBuffer();
    const publicKey = await upload(session.accessToken, 'avatar', png, 'me.png', 'image/png');
    const signed = await call('GET', `/api/mobile/uploads/signed-url/${privateKey}`, undefined, session.accessToken);
    expect(signed.status).toBe(200);
    const publicUrl = s3 ? `${s3.endpoint}/${s3.bucket}/${publicKey}` : `${system.gatewayUrl}/api/files/signed/${publicKey}`;

    const feedbackSubject = `Signed in ${hex()}`;
    expect((await call('POST', '/api/mobile/feedback', { category: 'bug_report', subject: feedbackSubject, message: 'It crashes on start.' }, session.accessToken)).status).toBe(
      201,
    );
    const guestSubject = `As a guest ${hex()}`;
    const guest = { name, email: email.toUpperCase(), phone: number, category: 'general_feedback', subject: guestSubject, message: 'Hello from before I signed up.' };
    expect((await call('POST', '/api/mobile/feedback/public', guest, null)).status).toBe(200);

    return {
      publicId: session.user.publicId,
      email,
      name,
      phone: number,
      deviceName,
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      municipality: place.municipality,
      files: { privateKey, publicKey, signedUrl: (signed.body.data as { url: string }).url, publicUrl },
      feedbackSubject,
      guestSubject,
    };
  }

  /** Fetches a URL media handed out as a client would: the gateway's (local) or the store's (s3). */
  const fetchUrl = (url: string) =>
    fetch(url.startsWith('http://localhost') || url.includes('/api/files/signed/') ? `${system.gatewayUrl}${new URL(url).pathname}${new URL(url).search}` : url);

  /** Every text and JSON column of every service's schema that holds one of `needles` (case-insensitive): `schema.table.column`. */
  async function personalDataLeft(needles: readonly string[]): Promise<string[]> {
    const schemas = Object.values(SERVICES).map((service) => service.schema);
    const { rows: columns } = await db.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = ANY($1) AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')`,
      [schemas],
    );
    expect(new Set(columns.map((column) => column.table_schema))).toEqual(new Set(schemas));
    const found: string[] = [];
    for (const { table_schema: schema, table_name: table, column_name: column } of columns) {
      const { rows } = await db.query<{ hits: number }>(`SELECT count(*)::int AS hits FROM "${schema}"."${table}" WHERE "${column}"::text ILIKE ANY($1)`, [
        needles.map((needle) => `%${needle}%`),
      ]);
      if ((rows[0]?.hits ?? 0) > 0) found.push(`${schema}.${table}.${column}`);
    }
    return found;
  }

  it('refuses the caller’s own account first (409 USER_SELF_ACTION) and unknown ids (404 USER_NOT_FOUND)', async () => {
    const me = (await call('GET', '/api/auth/me')).body.data as { publicId: string };
    expect(await erase(me.publicId)).toEqual({ status: 409, body: { message: 'You cannot ban or delete your own account', data: null, errorCode: 'USER_SELF_ACTION' } });
    expect(await erase('0190b6a4-0000-7000-8000-000000000000')).toEqual({ status: 404, body: { message: 'User not found', data: null, errorCode: 'USER_NOT_FOUND' } });
  });

  it('erases at once: sessions revoked, credentials retired, the account gone from every admin route, its email and phone free', async () => {
    const erin = await person();
    const forgotten = await call('POST', '/api/mobile/auth/password/forgot', { email: erin.email }, null);
    expect(forgotten.status).toBe(200);
    const resetToken = await linkToken(system.mailDir, erin.email, '/reset-password');
    const unknown = await call('POST', '/api/mobile/auth/password/reset', { email: `nobody.${hex()}@example.com`, otp: '123456', password: 'An0ther!Kettle-7' }, null);

    expect(await erase(erin.publicId)).toEqual({ status: 200, body: { message: 'User erased', data: null, errorCode: null } });

    expect(await call('POST', '/api/mobile/auth/password/reset', { token: resetToken, password: 'An0ther!Kettle-7' }, null)).toMatchObject({
      status: 400,
      body: { errorCode: 'AUTH_VERIFICATION_CODE_INVALID' },
    });
    expect(await call('POST', '/api/mobile/auth/password/reset', { email: erin.email, otp: '123456', password: 'An0ther!Kettle-7' }, null)).toEqual(unknown);

    expect((await call('GET', '/api/mobile/auth/me', undefined, erin.accessToken)).status).toBe(401);
    expect(await call('POST', '/api/mobile/auth/refresh', { refreshToken: erin.refreshToken }, null)).toMatchObject({
      status: 401,
      body: { errorCode: 'AUTH_REFRESH_TOKEN_INVALID' },
    });
    expect(await call('POST', '/api/mobile/auth/login/email', { email: erin.email, password: PASSWORD }, null)).toMatchObject({
      status: 401,
      body: { errorCode: 'AUTH_INVALID_CREDENTIALS' },
    });
    for (const path of [`/api/users/${erin.publicId}`, `/api/users/${erin.publicId}/sessions`]) {
      expect(await call('GET', path)).toMatchObject({ status: 404, body: { errorCode: 'USER_NOT_FOUND' } });
    }
    expect(await call('PATCH', `/api/users/${erin.publicId}`, { name: 'Back' })).toMatchObject({ status: 404, body: { errorCode: 'USER_NOT_FOUND' } });
    expect(await erase(erin.publicId)).toMatchObject({ status: 404, body: { errorCode: 'USER_NOT_FOUND' } });
    const listed = await call('GET', `/api/users?search=${encodeURIComponent(erin.name)}`);
    expect(listed.body.data).toEqual([]);

    const again = await call('POST', '/api/users', { email: erin.email, name: 'Someone New', role: 'customer', phone: erin.phone });
    expect(again.status).toBe(201);
  });

  it('a staff member’s live stream ends within 1 s of their erasure', async () => {
    const staff = await invitedPerson(system, admin, 'staff', PASSWORD);
    const controller = new AbortController();
    const response = await fetch(`${system.gatewayUrl}/api/notifications/stream`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${staff.accessToken}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    let ended = false;
    const reader = response.body!.getReader();
    void (async () => {
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true }));
        if (chunk.done) return void (ended = true);
      }
    })();
    try {
      expect((await erase(staff.publicId)).status).toBe(200);
      await waitFor(() => ended, { timeoutMs: 1_000, what: 'the stream to end' });
    } finally {
      controller.abort();
    }
  });

  it('then every service follows: geography free within 10 s, files and feedback within 60 s, one goodbye email, and no personal field left anywhere', async () => {
    const erin = await person();
    expect((await call('DELETE', `/api/lookups/municipalities/${erin.municipality.publicId}`)).body.errorCode).toBe('GEOGRAPHY_IN_USE');
    expect((await fetchUrl(erin.files.signedUrl)).status).toBe(200);
    expect((await fetchUrl(erin.files.publicUrl)).status).toBe(200);
    const needles = [erin.email, erin.name, erin.phone, erin.deviceName];
    // The scan finds what the account left before its erasure (so it can fail after).
    expect(await personalDataLeft(needles)).toEqual(
      expect.arrayContaining(['identity.users.email', 'identity.users.name', 'identity.users.phone', 'identity.sessions.device_name', 'feedback.feedback_submissions.email']),
    );
    const mailsBefore = (await mailsTo(system.mailDir, erin.email)).length;
    const erasedAt = Date.now();

    expect((await erase(erin.publicId)).status).toBe(200);
    for (const path of ['/api/mobile/auth/password/forgot', '/api/mobile/auth/email/verify/resend']) {
      expect((await call('POST', path, { email: erin.email }, null)).status).toBe(200);
    }

    await waitFor(async () => (await call('DELETE', `/api/lookups/municipalities/${erin.municipality.publicId}`)).status === 200, {
      timeoutMs: 10_000,
      what: 'the municipality deletable',
    });

    await waitFor(
      async () => {
        const statuses = await Promise.all([
          fetchUrl(erin.files.signedUrl),
          fetchUrl(erin.files.publicUrl),
          fetch(`${system.gatewayUrl}/api/upload/file/${erin.files.privateKey}`, { headers: { authorization: `Bearer ${admin}` } }),
        ]);
        return statuses.every((response) => response.status === 403 || response.status === 404);
      },
      { timeoutMs: 60_000, what: 'the files gone' },
    );
    // The objects go first, then their records (the quota) with the inbox row.
    await waitFor(async () => (await db.query(`SELECT 1 FROM media.uploads WHERE owner_id = $1`, [erin.publicId])).rowCount === 0, { timeoutMs: 60_000, what: 'the quota freed' });

    await waitFor(async () => (await db.query(`SELECT 1 FROM feedback.feedback_submissions WHERE user_id = $1 OR lower(email) = $2`, [erin.publicId, erin.email])).rowCount === 0, {
      timeoutMs: 60_000,
      what: 'the feedback unlinked',
    });
    const { rows: kept } = await db.query(
      `SELECT subject, message, category, created_at, user_id, name, email, phone FROM feedback.feedback_submissions WHERE subject = ANY($1) ORDER BY subject`,
      [[erin.feedbackSubject, erin.guestSubject]],
    );
    expect(kept).toEqual([
      expect.objectContaining({
        subject: erin.guestSubject,
        message: 'Hello from before I signed up.',
        category: 'general_feedback',
        user_id: null,
        name: null,
        email: null,
        phone: null,
      }),
      expect.objectContaining({ subject: erin.feedbackSubject, message: 'It crashes on start.', category: 'bug_report', user_id: null, name: null, email: null, phone: null }),
    ]);

    await waitFor(async () => (await mailsTo(system.mailDir, erin.email)).length > mailsBefore, { what: 'the goodbye email' });
    expect((await mailsTo(system.mailDir, erin.email)).slice(mailsBefore).map((mail) => mail.subject)).toEqual([GOODBYE]);

    // After the goodbye email went out (its outbox row, the last copy of the address, goes once the broker has it).
    let left: string[] = [];
    await waitFor(async () => (left = await personalDataLeft(needles)).length === 0, { timeoutMs: 10_000, what: 'no personal field left' }).catch(() => undefined);
    expect(left).toEqual([]);

    // Nothing more ever reaches the address because of that account, and no log line after the erasure names it.
    expect((await mailsTo(system.mailDir, erin.email)).slice(mailsBefore).map((mail) => mail.subject)).toEqual([GOODBYE]);
    for (const name of ['identity', 'feedback', 'media', 'reference-data', 'notifier', 'gateway'] as const) {
      const lines = system
        .logs(name)
        .split('\n')
        .filter((line) => needles.some((needle) => line.toLowerCase().includes(needle.toLowerCase())));
      const after = lines.filter((line) => loggedAt(line) >= erasedAt);
      expect({ name, after }).toEqual({ name, after: [] });
    }
  });

  it('a media stopped during the erasure deletes the files within 60 s of its return', async () => {
    const erin = await person();
    await system.stop('media');
    try {
      expect((await erase(erin.publicId)).status).toBe(200);
    } finally {
      await system.restart('media');
    }
    const back = Date.now();
    await waitFor(async () => (await db.query(`SELECT 1 FROM media.uploads WHERE owner_id = $1`, [erin.publicId])).rowCount === 0, {
      timeoutMs: 60_000,
      what: 'the files forgotten',
    });
    expect((await fetchUrl(erin.files.publicUrl)).status).toBeGreaterThanOrEqual(403);
    expect([403, 404]).toContain((await fetchUrl(erin.files.signedUrl)).status);
    expect(Date.now() - back).toBeLessThan(scaled(60_000));
  });
});
