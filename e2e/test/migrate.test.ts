import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES, SERVICES } from '@school/config';
import { readMigrationDirectories } from '@school/prisma';
import { MIGRATIONS as FEEDBACK } from '../../services/feedback/src/migrations.js';
import { MIGRATIONS as IDENTITY } from '../../services/identity/src/migrations.js';
import { MIGRATIONS as MEDIA } from '../../services/media/src/migrations.js';
import { MIGRATIONS as NOTIFIER } from '../../services/notifier/src/migrations.js';
import { MIGRATIONS as REFERENCE_DATA } from '../../services/reference-data/src/migrations.js';
import { withAdmin, withDatabase } from '@school/system-harness';

/** The migration job (compose's `migrate`, the Kubernetes Job): scripts/dist/migrate.js over the built services. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const baseUrl = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const database = `migrate_${randomBytes(4).toString('hex')}`;
const databaseUrl = Object.assign(new URL(baseUrl), { pathname: `/${database}` }).toString();
const MIGRATIONS = { identity: IDENTITY, 'reference-data': REFERENCE_DATA, feedback: FEEDBACK, media: MEDIA, notifier: NOTIFIER };

function migrate(...args: string[]) {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const result = spawnSync(process.execPath, ['scripts/dist/migrate.js', ...args], { cwd: root, env: { ...env, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * A hook (node:module `register`) printing the package of every module loaded from node_modules, one
 * `package <name>` line each on stderr.
 */
const PACKAGE_HOOK = `export async function load(url, context, next) {
  const found = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
  if (found) process.stderr.write('package ' + found[1] + '\\n');
  return next(url, context);
}`;
const registerHook = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(PACKAGE_HOOK)}`)});`;

/** The packages a service's dist/migrate.js loads for `--check`. */
function packagesLoadedByMigrate(name: string): string[] {
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(registerHook)}`, `services/${name}/dist/migrate.js`, '--check'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  return [...new Set([...result.stderr.matchAll(/^package (\S+)$/gm)].map(([, found]) => found!))];
}

async function recorded(): Promise<Record<string, string[]>> {
  return withDatabase(databaseUrl, async (client) => {
    const found: Record<string, string[]> = {};
    for (const name of SERVICE_NAMES) {
      const { rows } = await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM "${SERVICES[name].schema}"._prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
      );
      found[name] = rows.map((row) => row.migration_name);
    }
    return found;
  });
}

async function expected(): Promise<Record<string, string[]>> {
  return Object.fromEntries(
    await Promise.all(
      SERVICE_NAMES.map(async (name) => [name, (await readMigrationDirectories([MIGRATIONS[name]].flat().map((url) => fileURLToPath(url)))).map((file) => file.name)]),
    ),
  );
}

describe('scripts/dist/migrate.js (the migration job)', () => {
  beforeAll(() => withAdmin((client) => client.query(`CREATE DATABASE ${database}`)));
  afterAll(() => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)));

  it('reports pending migrations without applying them (--check exits 1 on a fresh database)', () => {
    const check = migrate('--check');
    expect(check.status).toBe(1);
    expect(check.output).toContain('pending');
  });

  it("applies every service's migrations into its own schema and exits 0", async () => {
    const run = migrate();
    expect({ status: run.status, output: run.output.slice(-2000) }).toEqual({ status: 0, output: expect.any(String) });
    expect(await recorded()).toEqual(await expected());
  });

  it("loads the applier's packages only, not NestJS, the broker's client or the HTTP server: a job starts in a fraction of a service's start", () => {
    for (const name of SERVICE_NAMES) {
      const packages = packagesLoadedByMigrate(name);
      expect({ name, pg: packages.includes('pg') }).toEqual({ name, pg: true });
      expect({ name, heavy: packages.filter((found) => /^(@nestjs\/|amqplib$|fastify$|ioredis$|bullmq$)/.test(found)) }).toEqual({ name, heavy: [] });
    }
  });

  it('is idempotent: a second run applies nothing, and --check then exits 0', async () => {
    const before = await recorded();
    const again = migrate();
    expect(again.status).toBe(0);
    expect(again.output).not.toContain('applying migration');
    expect(await recorded()).toEqual(before);
    expect(migrate('--check').status).toBe(0);
  });
});
