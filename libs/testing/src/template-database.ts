import { createHash, randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { SERVICES } from '@school/config';
import { applyMigrations, readMigrationDirectories } from '@school/prisma';
import { quoteIdent, testDatabaseUrl, withConnection } from './database.js';

/** What a template holds: these migrations applied into `schema`. */
export interface TemplateSpec {
  schema: string;
  /** Prisma migrations directories, applied together in name order (the service's and the outbox's). */
  migrationsDirs: readonly string[];
}

export interface TestDatabase {
  /** The database's URL (no `schema` parameter: pass `schema` alongside). */
  databaseUrl: string;
  /** The database's name: `test_<prefix>_<random>`. */
  database: string;
  /** Drops the database, closing whatever is still connected; safe to call twice. */
  drop(): Promise<void>;
}

// Paired with the template's name as the key of the advisory lock its builders take.
const TEMPLATE_LOCK = 72707370;
// A template of older migrations is dropped once no run has used it for this long (other worktrees and branches may still).
const UNUSED_TEMPLATE_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_SLUG = 20;

/**
 * The template of a service folder: its `prisma/migrations` (and `sharedMigrations`, the outbox's
 * for a producer) in the service's own schema (`SERVICES`), `svc` for a folder that is not a service.
 */
export function serviceTemplate(serviceDir: string, sharedMigrations: readonly URL[] = []): TemplateSpec {
  const schema = (SERVICES as Record<string, { schema: string } | undefined>)[basename(serviceDir)]?.schema ?? 'svc';
  return { schema, migrationsDirs: [join(serviceDir, 'prisma', 'migrations'), ...sharedMigrations.map((url) => fileURLToPath(url))] };
}

const ensured = new Map<string, Promise<string>>();

function slug(text: string, max: number): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, max) || 'test'
  );
}

/**
 * The template database holding `spec` migrated: `tpl_<schema>_<hash>`, the hash covering the
 * schema name and every migration script, so a changed migration gets a template of its own. Built
 * once, by whichever process first needs it (others wait on an advisory lock), under a temporary
 * name renamed when complete; then kept for later runs, and marked as a template nobody connects to.
 */
export function ensureTemplate(spec: TemplateSpec): Promise<string> {
  const key = `${spec.schema}\0${spec.migrationsDirs.join('\0')}`;
  let template = ensured.get(key);
  if (!template) {
    template = buildTemplate(spec);
    ensured.set(key, template);
    template.catch(() => ensured.delete(key));
  }
  return template;
}

async function buildTemplate(spec: TemplateSpec): Promise<string> {
  const files = await readMigrationDirectories(spec.migrationsDirs);
  const hash = createHash('sha256').update(spec.schema);
  for (const file of files) hash.update(`\0${file.name}\0${file.checksum}`);
  const prefix = `tpl_${slug(spec.schema, MAX_SLUG)}_`;
  const name = `${prefix}${hash.digest('hex').slice(0, 16)}`;
  const serverUrl = testDatabaseUrl();

  await withConnection(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [TEMPLATE_LOCK, name]);
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rows.length === 0) {
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${quoteIdent(building)}`);
        await applyMigrations({ databaseUrl: databaseUrlOf(serverUrl, building), schema: spec.schema, migrationsDir: spec.migrationsDirs });
        await client.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(name)}`);
        await client.query(`ALTER DATABASE ${quoteIdent(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      }
      await client.query(`COMMENT ON DATABASE ${quoteIdent(name)} IS '${Date.now()}'`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TEMPLATE_LOCK, name]);
    }
    await dropUnusedTemplates(client, prefix, name);
  });
  return name;
}

/** Templates of the same schema built from other migrations and unused for a day. */
async function dropUnusedTemplates(client: pg.Client, prefix: string, current: string): Promise<void> {
  const { rows } = await client.query<{ datname: string; used: string | null }>(
    `SELECT datname, shobj_description(oid, 'pg_database') AS used FROM pg_database
      WHERE datistemplate AND starts_with(datname, $1) AND datname <> $2`,
    [prefix, current],
  );
  for (const { datname, used } of rows) {
    if (Date.now() - Number(used ?? 0) < UNUSED_TEMPLATE_TTL_MS) continue;
    const { rows: locked } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [TEMPLATE_LOCK, datname]);
    if (!locked[0]?.ok) continue;
    try {
      await client.query(`ALTER DATABASE ${quoteIdent(datname)} WITH IS_TEMPLATE false`);
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TEMPLATE_LOCK, datname]);
    }
  }
}

/**
 * A database of its own for one suite, copied from the template of `spec` in milliseconds
 * (`CREATE DATABASE ... TEMPLATE`) instead of replaying the migrations. Its connections skip
 * waiting for the WAL flush (`synchronous_commit=off`): a test database need not survive a crash.
 */
export async function createTestDatabase(spec: TemplateSpec, prefix = spec.schema): Promise<TestDatabase> {
  const template = await ensureTemplate(spec);
  const serverUrl = testDatabaseUrl();
  const database = `test_${slug(prefix, 40)}_${randomBytes(6).toString('hex')}`;
  await withoutFlushWait(serverUrl, async (client) => {
    await client.query(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(template)}`);
    await client.query(`ALTER DATABASE ${quoteIdent(database)} SET synchronous_commit = off`);
  });
  return {
    databaseUrl: databaseUrlOf(serverUrl, database),
    database,
    drop: () => withoutFlushWait(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A connection whose commits (the copy, the drop) do not wait for the WAL flush: it halves their time on a busy disk. */
function withoutFlushWait<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withConnection(serverUrl, async (client) => {
    await client.query('SET synchronous_commit = off');
    return work(client);
  });
}

function databaseUrlOf(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}
