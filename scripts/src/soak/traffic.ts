// The soak's traffic: weighted operations over every surface, each from a client address of its
// own (the gateway trusts one proxy), each route with the statuses it promises.
import { type Answer, call, type Credentials, login, nextAddress, type RequestOptions } from '../proof/client.js';

type Surface = 'admin' | 'mobile';

/** A signed-in session as the login and refresh routes return it. */
interface Session {
  accessToken: string;
  refreshToken: string;
  user: { publicId: string };
}

export interface TrafficOptions {
  admin: Credentials;
  customers: Credentials[];
  /** Names what this run creates (sessions, provinces, feedback subjects). */
  tag: string;
  record: (route: string, answer: Answer) => void;
}

export interface Traffic {
  /** One weighted operation. */
  next(): Promise<Answer>;
  /** `<route> -> <status>` of every answer the route does not promise. */
  unexpected(): string[];
  /** The subjects of the feedback accepted, whose mails must arrive. */
  mailedTags(): string[];
}

/** A 1x1 PNG: real image content for the upload routes (optimised to WebP by the media service). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function pngForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'soak.png');
  return form;
}

/**
 * Signs in the admin and the customers, then returns `next()`: one weighted operation (two
 * requests for the write-then-delete ones), each answer passed to `record(route, answer)`.
 */
export async function trafficMix(baseUrl: string, { admin, customers, tag, record }: TrafficOptions): Promise<Traffic> {
  const send = (method: string, path: string, options: RequestOptions = {}) =>
    call(baseUrl, method, path, { ...options, headers: { 'x-forwarded-for': nextAddress(), 'x-device-id': 'soak', ...options.headers } });
  // Sessions are refreshed by one client at a time (a rotated token presented twice ends the session).
  const idle: Record<Surface, Session[]> = { admin: [], mobile: [] };
  for (let n = 0; n < 3; n += 1) idle.admin.push(await login(baseUrl, admin, 'admin'));
  for (const customer of customers) idle.mobile.push(await login(baseUrl, customer, 'mobile'));
  const first = (sessions: Session[]): Session => {
    if (!sessions[0]) throw new Error('the soak needs at least one customer');
    return sessions[0];
  };
  const latest: Record<Surface, Session> = { admin: first(idle.admin), mobile: first(idle.mobile) };
  /** Each customer's newest session: a private key is only readable by its owner. */
  const newestOf = new Map(idle.mobile.map((session) => [session.user.publicId, session]));
  const token = (surface: Surface) => latest[surface].accessToken;
  const unexpected: string[] = [];
  const mailed: string[] = [];
  let sequence = 0;
  const uploaded: string[] = [];

  const expect = (route: string, answer: Answer, ...statuses: number[]): Answer => {
    record(route, answer);
    if (!statuses.includes(answer.status)) unexpected.push(`${route} -> ${answer.status} ${answer.errorCode ?? ''}`);
    return answer;
  };
  const refresh = async (surface: Surface): Promise<Answer> => {
    const route = `POST /api/${surface === 'admin' ? '' : 'mobile/'}auth/refresh`;
    const session = idle[surface].pop();
    if (!session)
      return expect(
        `GET /api/${surface === 'admin' ? '' : 'mobile/'}auth/me`,
        await send('GET', `/api/${surface === 'admin' ? '' : 'mobile/'}auth/me`, { token: token(surface) }),
        200,
      );
    const answer = await send('POST', route.slice(5), { body: { refreshToken: session.refreshToken } });
    const next = answer.status === 200 ? (answer.body.data as Session) : session;
    idle[surface].push(next);
    latest[surface] = next;
    if (surface === 'mobile') newestOf.set(next.user.publicId, next);
    return expect(route, answer, 200);
  };

  const operations: [weight: number, operation: () => Promise<Answer>][] = [
    [
      1,
      async () =>
        expect(
          'POST /api/auth/login/email',
          await send('POST', '/api/auth/login/email', { body: { ...admin, deviceInfo: { deviceId: 'soak', deviceType: 'script', deviceName: 'soak' } } }),
          200,
        ),
    ],
    [
      1,
      async () =>
        expect(
          'POST /api/mobile/auth/login/email',
          await send('POST', '/api/mobile/auth/login/email', {
            body: { ...customers[sequence++ % customers.length]!, deviceInfo: { deviceId: 'soak', deviceType: 'script', deviceName: 'soak' } },
          }),
          200,
        ),
    ],
    [3, () => refresh('admin')],
    [2, () => refresh('mobile')],
    [3, async () => expect('GET /api/auth/me', await send('GET', '/api/auth/me', { token: token('admin') }), 200)],
    [2, async () => expect('GET /api/mobile/auth/me', await send('GET', '/api/mobile/auth/me', { token: token('mobile') }), 200)],
    [4, async () => expect('GET /api/academic-sessions', await send('GET', '/api/academic-sessions', { token: token('admin') }), 200)],
    [3, async () => expect('GET /api/lookups/provinces', await send('GET', '/api/lookups/provinces', { token: token('admin') }), 200)],
    [2, async () => expect('GET /api/lookups/municipalities', await send('GET', '/api/lookups/municipalities?page=2&size=10', { token: token('admin') }), 200)],
    [
      1,
      async () => {
        const year = 2100 + (sequence++ % 800);
        const created = await send('POST', '/api/academic-sessions', {
          token: token('admin'),
          body: { name: `${tag} ${sequence}`, startDate: `${year}-04-01`, endDate: `${year + 1}-03-31` },
        });
        expect('POST /api/academic-sessions', created, 201);
        if (created.status !== 201) return created;
        return expect('DELETE /api/academic-sessions/:id', await send('DELETE', `/api/academic-sessions/${created.body.data.publicId}`, { token: token('admin') }), 200);
      },
    ],
    [
      1,
      async () => {
        const created = await send('POST', '/api/lookups/provinces', { token: token('admin'), body: { name: `${tag} ${sequence++}` } });
        expect('POST /api/lookups/provinces', created, 201);
        if (created.status !== 201) return created;
        return expect('DELETE /api/lookups/provinces/:id', await send('DELETE', `/api/lookups/provinces/${created.body.data.publicId}`, { token: token('admin') }), 200);
      },
    ],
    [1, async () => expect('POST /api/upload', await send('POST', '/api/upload?uploadType=image', { token: token('admin'), body: pngForm() }), 200, 429)],
    [
      1,
      async () => {
        const answer = await send('POST', '/api/mobile/uploads?uploadType=image', { token: token('mobile'), body: pngForm() });
        if (answer.status === 200 && uploaded.length < 100) uploaded.push(answer.body.data.relativePath);
        return expect('POST /api/mobile/uploads', answer, 200);
      },
    ],
    [
      1,
      async () => {
        const key = uploaded[sequence++ % Math.max(1, uploaded.length)];
        if (!key) return expect('GET /api/mobile/auth/me', await send('GET', '/api/mobile/auth/me', { token: token('mobile') }), 200);
        // The key names the customer who uploaded it (uploads/image/<publicId>/<file>): ask as them.
        const owner = newestOf.get(key.split('/')[2] ?? '') ?? latest.mobile;
        return expect('GET /api/mobile/uploads/signed-url/*', await send('GET', `/api/mobile/uploads/signed-url/${key}`, { token: owner.accessToken }), 200);
      },
    ],
    [
      2,
      async () => {
        const subject = `${tag}-${sequence++}`;
        const answer = await send('POST', '/api/mobile/feedback/public', {
          body: { name: 'Soak Guest', email: 'soak.guest@example.org', category: 'general_feedback', subject, message: 'Sent by the soak.' },
        });
        if (answer.status === 200) mailed.push(subject);
        return expect('POST /api/mobile/feedback/public', answer, 200);
      },
    ],
    [
      1,
      async () => {
        const subject = `${tag}-${sequence++}`;
        const answer = await send('POST', '/api/mobile/feedback', { token: token('mobile'), body: { category: 'bug_report', subject, message: 'Sent by the soak.' } });
        if (answer.status === 201) mailed.push(subject);
        // Contract §9: 60 admin uploads per minute and 10 signed-in feedbacks per hour per user; the soak's few
        // accounts go past both, so 429 is one of the answers these routes promise.
        return expect('POST /api/mobile/feedback', answer, 201, 429);
      },
    ],
  ];
  const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);
  return {
    next() {
      let pick = Math.random() * totalWeight;
      for (const [weight, operation] of operations) {
        pick -= weight;
        if (pick < 0) return operation();
      }
      return operations[0]![1]();
    },
    unexpected: () => unexpected,
    mailedTags: () => mailed,
  };
}
