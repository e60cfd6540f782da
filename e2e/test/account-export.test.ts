import { randomBytes, randomUUID } from 'node:crypto';
import { BOOTSTRAP_ADMIN, clientAddress, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';

/**
 * Contract §11 export through the gateway: a person's copy of their own data on either surface, an
 * administrator's of any account; identity gathers the feedback and the files from their services.
 * (A copy while feedback or media gives no answer: services/identity/test/account-export.test.ts.)
 */

const PASSWORD = 'Exp0rt!Copper-Heron';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const TEXT = Buffer.from('a note only its owner should see\n');

let system: SystemView;
let admin: SignedIn;

interface Copy {
  exportedAt: string;
  profile: Record<string, unknown>;
  address: Record<string, unknown> | null;
  sessions: Record<string, unknown>[];
  feedback: Record<string, unknown>[];
  files: Record<string, unknown>[];
}

interface Download {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

interface Upload {
  relativePath: string;
  size: number;
  mimeType: string;
}

async function request(method: string, path: string, token?: string, body?: RequestInit['body'], headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${system.gatewayUrl}${path}`, {
    method,
    headers: { 'x-forwarded-for': clientAddress(), ...(token && { authorization: `Bearer ${token}` }), ...headers },
    ...(body !== undefined && { body }),
  });
}

async function download(path: string, token: string): Promise<Download> {
  const response = await request('GET', path, token);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Record<string, unknown> };
}

const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

async function sendFeedback(token: string, subject: string): Promise<void> {
  const { body, headers } = json({ category: 'feature_request', subject, message: `${subject}: the details\nline two` });
  const answer = await request('POST', '/api/mobile/feedback', token, body, headers);
  expect(answer.status).toBe(201);
}

async function upload(token: string, uploadType: 'avatar' | 'file', bytes: Buffer, filename: string, type: string): Promise<Upload> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const answer = await request('POST', `/api/mobile/uploads?uploadType=${uploadType}`, token, form);
  const body = (await answer.json()) as { data: Upload };
  expect(answer.status).toBe(200);
  return body.data;
}

async function logIn(email: string, deviceInfo: Record<string, string>): Promise<string> {
  const { body, headers } = json({ email, password: PASSWORD, deviceInfo });
  const answer = await request('POST', '/api/mobile/auth/login/email', undefined, body, headers);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { accessToken: string } }).data.accessToken;
}

const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

/** A customer with two live sessions, a signed-in feedback, a private file and a public one. */
async function customerWithData(label: string) {
  const person = await invitedPerson(system, admin.accessToken, 'customer', PASSWORD);
  const phone = await logIn(person.email, { deviceId: `phone-${label}`, deviceType: 'ios', deviceName: `Phone of ${label}` });
  const subject = `Export ${label} ${randomBytes(3).toString('hex')}`;
  await sendFeedback(phone, subject);
  const note = await upload(phone, 'file', TEXT, `note-${label}.txt`, 'text/plain');
  const avatar = await upload(phone, 'avatar', PNG, `face-${label}.png`, 'image/png');
  return { ...person, phone, subject, note, avatar };
}

beforeAll(async () => {
  system = await sharedSystem();
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
}, 90_000);

describe('account export (contract §11)', () => {
  let alice: Awaited<ReturnType<typeof customerWithData>>;
  let bob: Awaited<ReturnType<typeof customerWithData>>;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([customerWithData('alice'), customerWithData('bob')]);
  }, 120_000);

  it('gives a customer their own copy on the mobile surface: a JSON file of exactly their data, named after the UTC date', async () => {
    const copy = await download('/api/mobile/account/export', alice.phone);
    expect(copy.status).toBe(200);
    expect(copy.headers.get('content-type')).toBe('application/json');
    expect(copy.headers.get('cache-control')).toBe('no-store');
    const body = copy.body as unknown as Copy;
    expect(body.exportedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Math.abs(Date.parse(body.exportedAt) - Date.now())).toBeLessThan(5 * 60_000);
    expect(copy.headers.get('content-disposition')).toBe(`attachment; filename="account-export-${new Date(body.exportedAt).toISOString().slice(0, 10)}.json"`);
    expect(Object.keys(body).sort()).toEqual(['address', 'exportedAt', 'feedback', 'files', 'profile', 'sessions']);

    const me = (await (await request('GET', '/api/mobile/auth/me', alice.phone)).json()) as { data: unknown };
    expect(body.profile).toEqual(me.data);
    expect(body.address).toBeNull();

    // Two live sessions (the invitation's sign-in and the phone), newest first; the calling one is current.
    expect(body.sessions).toHaveLength(2);
    expect(body.sessions[0]).toEqual({
      id: sidOf(alice.phone),
      deviceId: 'phone-alice',
      deviceType: 'ios',
      deviceName: 'Phone of alice',
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      current: true,
    });
    expect(body.sessions[1]).toMatchObject({ id: sidOf(alice.accessToken), current: false });

    expect(body.feedback).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        category: 'feature_request',
        subject: alice.subject,
        message: `${alice.subject}: the details\nline two`,
        createdAt: expect.any(String),
      },
    ]);
    expect(body.files).toEqual(
      expect.arrayContaining([
        { key: alice.note.relativePath, uploadType: 'file', originalName: 'note-alice.txt', mimeType: alice.note.mimeType, size: alice.note.size, createdAt: expect.any(String) },
        {
          key: alice.avatar.relativePath,
          uploadType: 'avatar',
          originalName: 'face-alice.png',
          mimeType: alice.avatar.mimeType,
          size: alice.avatar.size,
          createdAt: expect.any(String),
        },
      ]),
    );
    expect(body.files).toHaveLength(2);
    expect(alice.avatar.relativePath).toMatch(/^public\//);
    expect(alice.note.relativePath).toMatch(/^uploads\/file\//);
  });

  it('holds nothing of another person and no password hash, token or secret', async () => {
    const copy = await download('/api/mobile/account/export', alice.phone);
    expect(copy.status).toBe(200);
    for (const foreign of [bob.publicId, bob.email, bob.subject, bob.note.relativePath, bob.avatar.relativePath, 'face-bob.png', 'Phone of bob', admin.publicId, admin.email]) {
      expect({ foreign, found: copy.text.includes(foreign) }).toEqual({ foreign, found: false });
    }
    // `hasPassword` is the profile's yes/no; no other key names a password, hash, token or secret.
    expect(keysOf(copy.body).filter((key) => /password|hash|token|secret/i.test(key) && key !== 'hasPassword')).toEqual([]);
    for (const secret of [alice.accessToken, alice.phone, '$argon2', 'signature=']) expect(copy.text.includes(secret)).toBe(false);
  });

  it('binds each self route to its surface: a token of the other surface is 401 AUTH_UNAUTHENTICATED', async () => {
    const mobileOnAdmin = await download('/api/auth/account/export', alice.phone);
    expect([mobileOnAdmin.status, mobileOnAdmin.body['errorCode']]).toEqual([401, 'AUTH_UNAUTHENTICATED']);
    const adminOnMobile = await download('/api/mobile/account/export', admin.accessToken);
    expect([adminOnMobile.status, adminOnMobile.body['errorCode']]).toEqual([401, 'AUTH_UNAUTHENTICATED']);
  });

  it('gives an administrator (Users_READ) the copy of any account, sessions without current; 403 without the permission, 404 for an unknown one', async () => {
    const copy = await download(`/api/users/${bob.publicId}/export`, admin.accessToken);
    expect(copy.status).toBe(200);
    expect(copy.headers.get('content-disposition')).toMatch(/^attachment; filename="account-export-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(copy.headers.get('cache-control')).toBe('no-store');
    const body = copy.body as unknown as Copy;
    expect(body.profile).toMatchObject({ publicId: bob.publicId, email: bob.email });
    expect(body.sessions).toHaveLength(2);
    for (const session of body.sessions) expect(session).not.toHaveProperty('current');
    expect(body.feedback).toEqual([expect.objectContaining({ subject: bob.subject })]);
    expect(body.files.map((file) => file['key']).sort()).toEqual([bob.note.relativePath, bob.avatar.relativePath].sort());
    expect(copy.text.includes(alice.publicId)).toBe(false);

    const staff = await invitedPerson(system, admin.accessToken, 'staff', PASSWORD);
    const refused = await download(`/api/users/${bob.publicId}/export`, staff.accessToken);
    expect([refused.status, refused.body['errorCode']]).toEqual([403, 'PERMISSION_INSUFFICIENT']);
    const unknown = await download(`/api/users/${randomUUID()}/export`, admin.accessToken);
    expect([unknown.status, unknown.body['errorCode']]).toEqual([404, 'USER_NOT_FOUND']);
  }, 60_000);

  it('copies a soft-deleted account for an administrator', async () => {
    const { body, headers } = json({ email: `export.deleted.${randomBytes(4).toString('hex')}@example.com`, name: 'Gone Person', role: 'customer' });
    const created = (await (await request('POST', '/api/users', admin.accessToken, body, headers)).json()) as { data: { publicId: string } };
    expect((await request('DELETE', `/api/users/${created.data.publicId}`, admin.accessToken)).status).toBe(200);
    expect((await request('GET', `/api/users/${created.data.publicId}`, admin.accessToken)).status).toBe(404);
    const copy = await download(`/api/users/${created.data.publicId}/export`, admin.accessToken);
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ profile: { publicId: created.data.publicId, name: 'Gone Person' }, sessions: [], feedback: [], files: [] });
  });
});

describe('the API document (contract §11 export)', () => {
  it('describes each export route: its body, its headers and its 429', async () => {
    const document = (await (await request('GET', '/api/openapi.json')).json()) as {
      paths: Record<
        string,
        { get?: { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }> } }
      >;
    };
    for (const path of ['/api/auth/account/export', '/api/mobile/account/export', '/api/users/{publicId}/export']) {
      const responses = document.paths[path]?.get?.responses ?? {};
      expect({ path, statuses: Object.keys(responses) }).toEqual({ path, statuses: expect.arrayContaining(['200', '401', '429', '503']) });
      expect(Object.keys(responses['200']?.headers ?? {}).sort()).toEqual(['Cache-Control', 'Content-Disposition']);
      expect(Object.keys(responses['200']?.content?.['application/json']?.schema.properties ?? {}).sort()).toEqual([
        'address',
        'exportedAt',
        'feedback',
        'files',
        'profile',
        'sessions',
      ]);
    }
  });
});

describe('at most 5 copies of one account an hour (contract §11)', () => {
  const limited = async (path: string, token: string) => {
    const answer = await download(path, token);
    expect([answer.status, answer.body['errorCode']]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
  };

  // Five copies in a mixed order of the two routes, then each route refused.
  it.each([
    { surface: 'administrator-surface', role: 'staff', own: '/api/auth/account/export', order: ['own', 'admin', 'own', 'admin', 'own'] },
    { surface: 'mobile', role: 'customer', own: '/api/mobile/account/export', order: ['admin', 'own', 'own', 'admin', 'own'] },
  ] as const)(
    'counts the $surface self route and the administrator route together: the sixth is 429',
    async ({ role, own, order }) => {
      const person = await invitedPerson(system, admin.accessToken, role, PASSWORD);
      const byAdmin = `/api/users/${person.publicId}/export`;
      for (const caller of order) {
        expect((await download(caller === 'own' ? own : byAdmin, caller === 'own' ? person.accessToken : admin.accessToken)).status).toBe(200);
      }
      await limited(own, person.accessToken);
      await limited(byAdmin, admin.accessToken);
      // The administrator's own copies are counted apart.
      expect((await download('/api/auth/account/export', admin.accessToken)).status).toBe(200);
    },
    60_000,
  );
});
