// `npm run bench:growth` (after `npm run build`): the cost of every list and search as data grows
// (issue 36 item 5). One bounded run on this machine against a fresh database dropped at the end;
// needs Postgres, Redis and RabbitMQ (DATABASE_URL, REDIS_URL, AMQP_URL).
//
// Starts the system in production mode (@school/system-harness), then at two sizes, the small one
// first: 1,000 accounts, 1,000 feedback submissions and 1,000 audit entries; then 100,000 accounts,
// 1,000,000 submissions and 1,000,000 audit entries (BENCH_GROWTH_SCALE scales the large size; the
// quick run takes a tenth). Rows are written with generate_series SQL straight into the services'
// schemas, then VACUUM ANALYZE (the state autovacuum keeps a table in) and CHECKPOINT. At each size,
// once every read has run BENCH_REQUESTS times unmeasured (V8 has compiled the paths and the new
// rows are in the cache, as in a system that has been serving them), the bootstrap admin reads, one
// request at a time through the gateway (BENCH_REQUESTS each, default 200, after a tenth more unmeasured):
//   GET /api/users                     the first page and its count;
//   GET /api/users?page=50             a page that exists at both sizes, the same OFFSET in each;
//   GET /api/users?search=zq7          a rare substring (random 8-letter names and emails match it ~40 times in 100,000);
//   GET /api/users?search=<an email>   one account found by its address;
//   GET /api/audit-events              newest first, and with each filter of contract §13
//                                      (actor, action=<resource>.*, targetType+targetId, to) and the next page by cursor;
//   GET /api/users/:publicId/export    a person's copy of their data, which lists their feedback among all
//                                      submissions (contract §11; 5 per account an hour, so a few accounts each).
// Printed per read: p50 and p99 at both sizes, and the CPU time per request of every process of the
// system and of its database's own backends (by pid, from /proc: what the read costs, which the
// machine's other load inflates far less than latency); reported: the large size's p50, p99 and CPU
// per request against the small one's (target <= 2, issue 36). The last page of the users list (its OFFSET grows with the
// table; the contract's `page` allows no keyset) is printed and reported without a target.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { RunningSystem } from '@school/system-harness';
import pg from 'pg';
import { type CpuTimes, cpuPerRequest, cpuTimes, reportResult, startProductionSystem, stopAll } from './support.js';

const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const warmup = Math.max(5, Math.round(requests / 10));
const scale = Number(process.env.BENCH_GROWTH_SCALE ?? 1);
const SMALL = { accounts: 1_000, rows: 1_000 };
const LARGE = { accounts: Math.round(100_000 * scale), rows: Math.round(1_000_000 * scale) };
const TARGET = 2;
/** Exports per account within its hourly cap of 5 (contract §11). */
const EXPORTS_PER_ACCOUNT = 5;
const EXPORTS = Math.max(20, Math.round(requests / 2));
const FEEDBACK_PER_EXPORTED_ACCOUNT = 3;
/** The accounts that acted in the seeded audit entries (contract §13 filters by a publicId, a UUID). */
const ACTORS = Array.from({ length: 20 }, () => randomUUID());

const adminPassword = `Bench-${randomBytes(9).toString('base64url')}-9a`;
let system: RunningSystem | undefined;
let db: pg.Client | undefined;

interface Size {
  accounts: number;
  rows: number;
}
interface Latency {
  p50: number;
  p99: number;
  /** CPU ms per request, every process of the system and its database's backends together. */
  cpu: number | undefined;
  /** The same by process. */
  detail: string;
}

const percentile = (sorted: number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
const load = () => (loadavg()[0] ?? 0).toFixed(2);

async function json(response: Response): Promise<any> {
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Random lower-case letters and digits, one string per row (a lateral subquery that names the row, so it is not computed once). */
const randomText = (length: number, row: string) =>
  `(SELECT string_agg(substr('abcdefghijklmnopqrstuvwxyz0123456789', 1 + floor(random() * 36)::int, 1), '') FROM generate_series(1, ${length}) WHERE ${row} > 0)`;

/** Live accounts up to `total`, with names and emails of random letters as people's are to a trigram. */
async function seedAccounts(total: number): Promise<void> {
  const [{ live }] = (await db!.query('SELECT live FROM identity.live_user_count')).rows;
  await db!.query(
    `INSERT INTO identity.users (public_id, email, name, role, email_verified_at, updated_at)
     SELECT gen_random_uuid(), 'p' || g || '.' || ${randomText(8, 'g')} || '@example.com',
            initcap(${randomText(6, 'g')}) || ' ' || initcap(${randomText(8, 'g')}), 'customer', now(), now()
       FROM generate_series($1::int + 1, $2::int) g`,
    [live, total],
  );
}

/**
 * Submissions up to `total`: the exported accounts' few first (the same at both sizes), then a third
 * signed in by accounts of no interest here and the rest guests, as the two routes write them.
 */
async function seedFeedback(total: number, exported: string[]): Promise<void> {
  const [{ n }] = (await db!.query('SELECT count(*)::int AS n FROM feedback.feedback_submissions')).rows;
  if (n === 0) {
    await db!.query(
      `INSERT INTO feedback.feedback_submissions (id, user_id, category, subject, message, created_at)
       SELECT gen_random_uuid(), account::uuid, 'general_feedback', 'About the app', 'Submission ' || k || ' of a person whose data is copied', now() - make_interval(days => k)
         FROM unnest($1::text[]) account, generate_series(1, $2::int) k`,
      [exported, FEEDBACK_PER_EXPORTED_ACCOUNT],
    );
  }
  await db!.query(
    `INSERT INTO feedback.feedback_submissions (id, user_id, name, email, category, subject, message, ip, user_agent, created_at)
     SELECT gen_random_uuid(),
            CASE WHEN g % 3 = 0 THEN md5('account' || g % 200000)::uuid END,
            CASE WHEN g % 3 <> 0 THEN 'Guest ' || g END,
            CASE WHEN g % 3 <> 0 THEN 'guest' || g || '@example.org' END,
            (ARRAY['bug_report', 'feature_request', 'general_feedback']::feedback.feedback_category[])[1 + g % 3],
            'Subject ' || g, 'A message about the school app, number ' || g || ', long enough to look like one people write.',
            '10.' || g % 250 || '.0.1', 'bench', now() - make_interval(secs => g)
       FROM generate_series((SELECT count(*) FROM feedback.feedback_submissions)::int + 1, $1::int) g`,
    [total],
  );
}

/** Audit entries up to `total`, one a second back from now, spread over the ACTORS, six actions and 50,000 targets. */
async function seedAudit(total: number): Promise<void> {
  await db!.query(
    `INSERT INTO identity.audit_entries (id, occurred_at, actor_public_id, actor_email, actor_role, action, resource, target_type, target_id, changes, ip, user_agent, request_id)
     SELECT gen_random_uuid(), now() - make_interval(secs => g), ($2::text[])[1 + g % $3::int], 'actor' || g % $3::int || '@example.com', 'admin',
            a.action, split_part(a.action, '.', 1), 'user', md5('target' || g % 50000)::uuid::text,
            '{"name":{"from":"A","to":"B"}}', '10.0.' || g % 250 || '.1', 'bench', md5(g::text)
       FROM generate_series((SELECT count(*) FROM identity.audit_entries)::int + 1, $1::int) g
      CROSS JOIN LATERAL (SELECT (ARRAY['user.create', 'user.update', 'auth.login', 'auth.login_failed', 'user.delete', 'auth.logout'])[1 + g % 6] AS action WHERE g > 0) a`,
    [total, ACTORS, ACTORS.length],
  );
}

async function seed(size: Size, exported: string[]): Promise<void> {
  const started = Date.now();
  await seedAccounts(size.accounts);
  await seedFeedback(size.rows, exported);
  await seedAudit(size.rows);
  for (const table of ['identity.users', 'identity.audit_entries', 'feedback.feedback_submissions']) await db!.query(`VACUUM ANALYZE ${table}`);
  // The seed's dirty pages written now, not by the checkpointer while the reads are timed.
  await db!.query('CHECKPOINT');
  console.log(
    `seeded ${size.accounts} accounts, ${size.rows} submissions and ${size.rows} audit entries in ${((Date.now() - started) / 1000).toFixed(0)} s (load average ${load()})`,
  );
}

async function signIn(gateway: string): Promise<Record<string, string>> {
  const body = JSON.stringify({ email: 'admin@example.com', password: adminPassword });
  const login = await json(await fetch(`${gateway}/api/auth/login/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  return { authorization: `Bearer ${login.data.accessToken as string}` };
}

/** The backends of the system's database, each named by its pid: what Postgres spends on the reads, apart from other databases on the server. */
async function databaseBackends(): Promise<Record<number, string>> {
  const { rows } = await db!.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return Object.fromEntries(rows.map(({ pid }) => [pid, `${BACKEND}${pid}`]));
}
const BACKEND = 'postgres:';

/**
 * What each process spent between two readings, the database's backends summed as `postgres`; a
 * backend gone meanwhile (a pool closing an idle connection) is left out rather than counted negative.
 */
function spentBetween(before: CpuTimes, after: CpuTimes): CpuTimes {
  const spent: CpuTimes = {};
  for (const [name, ms] of Object.entries(after)) {
    const key = name.startsWith(BACKEND) ? 'postgres' : name;
    spent[key] = (spent[key] ?? 0) + ms - (before[name] ?? 0);
  }
  return spent;
}

/** CPU ms per request of the system's processes and its database's backends (the bench's own left out), and the same by process. */
function cpuPerRequestOf(before: CpuTimes | undefined, after: CpuTimes | undefined, requests: number): Pick<Latency, 'cpu' | 'detail'> {
  if (!before || !after) return { cpu: undefined, detail: '' };
  const spent = spentBetween(before, after);
  const total = Object.entries(spent).reduce((sum, [name, ms]) => (name === 'bench' ? sum : sum + ms), 0);
  return { cpu: total / requests, detail: cpuPerRequest({}, spent, requests) };
}

/**
 * `count` paths (the same path again, or one per request), one at a time, after `warm` unmeasured
 * ones: the latency as the client sees it, and the CPU the system and its database spent per request
 * (which the machine's other load does not inflate as it does latency).
 */
async function measure(gateway: string, headers: Record<string, string>, paths: (index: number) => string, count: number, warm: number): Promise<Latency> {
  const times: number[] = [];
  let before: CpuTimes | undefined;
  let backends: Record<number, string> = {};
  for (let index = 0; index < warm + count; index += 1) {
    if (index === warm) {
      backends = await databaseBackends();
      before = cpuTimes([], backends);
    }
    const started = performance.now();
    const response = await fetch(`${gateway}${paths(index)}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${paths(index)}: ${response.status}`);
    if (index >= warm) times.push(performance.now() - started);
  }
  const after = cpuTimes([], { ...backends, ...(await databaseBackends()) });
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), ...cpuPerRequestOf(before, after, count) };
}

const LAST_PAGE = 'users: last page';
const EXPORT = 'export: a person’s data with their feedback';

/**
 * The reads at one size, by name. `exportAccounts`: accounts of this size's exports, none used
 * before; without them (the warm-up before the small size, so that neither size is measured on
 * code not yet compiled by V8) every read but the export runs `requests` times unmeasured.
 */
async function measureAll(gateway: string, exportAccounts?: string[]): Promise<Map<string, Latency>> {
  const headers = await signIn(gateway);
  const get = async (path: string) => json(await fetch(`${gateway}${path}`, { headers }));
  const [{ email }] = (await db!.query('SELECT email FROM identity.users WHERE deleted_at IS NULL ORDER BY id DESC LIMIT 1')).rows;
  const [{ target_id: target }] = (await db!.query('SELECT target_id FROM identity.audit_entries ORDER BY occurred_at DESC LIMIT 1')).rows;
  const lastPage = (await get('/api/users')).totalPage as number;
  const cursor = (await get('/api/audit-events')).nextCursor as string;
  const to = new Date(Date.now() - 200_000).toISOString();
  const reads: [string, string][] = [
    ['users: first page', '/api/users'],
    ['users: page 50', '/api/users?page=50'],
    ['users: search a rare substring', '/api/users?search=zq7'],
    ['users: search an email', `/api/users?search=${encodeURIComponent(email as string)}`],
    [LAST_PAGE, `/api/users?page=${lastPage}`],
    ['audit: first page', '/api/audit-events'],
    ['audit: by actor', `/api/audit-events?actor=${ACTORS[1]!}`],
    ['audit: action=<resource>.*', '/api/audit-events?action=auth.*'],
    ['audit: by target', `/api/audit-events?targetType=user&targetId=${target as string}`],
    ['audit: up to an instant', `/api/audit-events?to=${encodeURIComponent(to)}`],
    ['audit: next page by cursor', `/api/audit-events?cursor=${encodeURIComponent(cursor)}`],
  ];
  const results = new Map<string, Latency>();
  for (const [name, path] of reads) results.set(name, await measure(gateway, headers, () => path, exportAccounts ? requests : 1, exportAccounts ? warmup : requests));
  if (!exportAccounts) return results;
  const exportPath = (index: number) => `/api/users/${exportAccounts[Math.floor(index / EXPORTS_PER_ACCOUNT)]!}/export`;
  results.set(EXPORT, await measure(gateway, headers, exportPath, EXPORTS - 5, 5));
  for (const [name, { p50, p99, detail }] of results) console.log(`  ${name.padEnd(46)} p50 ${p50.toFixed(1).padStart(7)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  ${detail}`);
  return results;
}

try {
  system = await startProductionSystem('bench-growth', {
    BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  const gateway = system.gatewayUrl;
  db = new pg.Client({ connectionString: system.environment('identity')['DATABASE_URL'] });
  await db.connect();
  await signIn(gateway); // the bootstrap admin exists once identity is ready; its first login is no figure

  // Accounts whose data is exported: the first ones seeded, EXPORTS per size, each used up to its hourly cap.
  const exportedPerSize = Math.ceil(EXPORTS / EXPORTS_PER_ACCOUNT);
  await seedAccounts(1 + 2 * exportedPerSize);
  const exported: string[] = (await db.query(`SELECT public_id::text AS id FROM identity.users WHERE role = 'customer' ORDER BY id`)).rows.map((row: { id: string }) => row.id);

  console.log(`bench/growth: ${requests} requests per read, one at a time, after ${warmup} unmeasured; load average ${load()}`);
  await seed(SMALL, exported);
  await measureAll(gateway);
  const small = await measureAll(gateway, exported.slice(0, exportedPerSize));
  await seed(LARGE, exported);
  await measureAll(gateway);
  const large = await measureAll(gateway, exported.slice(exportedPerSize));

  const sizes = `${SMALL.accounts} accounts / ${SMALL.rows} rows vs ${LARGE.accounts} / ${LARGE.rows}`;
  for (const [name, big] of large) {
    const little = small.get(name)!;
    const unbounded = name === LAST_PAGE;
    const note = `${sizes}; ${requests} sequential requests through the gateway; load average ${load()}${unbounded ? '; OFFSET grows with the table (page numbers allow no keyset)' : ''}`;
    const target = unbounded ? {} : { target: { op: '<=' as const, value: TARGET } };
    for (const quantile of ['p50', 'p99'] as const) {
      reportResult({ figure: `${quantile} as data grows: ${name}`, product: big[quantile], ceiling: little[quantile], unit: 'ms', ...target, note });
    }
    if (big.cpu !== undefined && little.cpu !== undefined) {
      const where = `the system's processes and its database's backends; at ${LARGE.accounts}: ${big.detail}`;
      reportResult({ figure: `CPU per request as data grows: ${name}`, product: big.cpu, ceiling: little.cpu, unit: 'ms', ...target, note: `${note}; ${where}` });
    }
  }
} finally {
  await db?.end();
  await stopAll();
  await system?.shutdown();
}
