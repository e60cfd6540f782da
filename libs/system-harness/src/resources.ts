import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestBroker } from '@school/messaging/testing';
import { claimRedisDatabase } from '@school/testing';
import pg from 'pg';

const baseDatabaseUrl = () => process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function withDatabase<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A client of the server's maintenance database (DATABASE_URL), to create and drop databases. */
export function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withDatabase(baseDatabaseUrl(), work);
}

export interface FreshDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new database `<prefix>_<random>` on the server of DATABASE_URL. */
export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export interface IsolatedResources {
  /** The run's name: `<label>-<random>`. */
  run: string;
  /** DATABASE_URL, REDIS_URL, AMQP_NAME_PREFIX, MAIL_OUTBOX_DIR, STORAGE_DIR of this run only. */
  env: Record<string, string>;
  mailDir: string;
  release(): Promise<void>;
}

/** A database, a Redis database, broker names, a mail folder and a storage folder of its own for one system run. */
export async function isolatedResources(label = 'e2e'): Promise<IsolatedResources> {
  const run = `${label}-${randomBytes(4).toString('hex')}`;
  const releases: (() => Promise<unknown>)[] = [];
  const release = async () => {
    for (const step of releases.splice(0).reverse()) await step();
  };
  try {
    const database = await freshDatabase(run.replace(/-/g, '_'));
    releases.push(() => database.drop());
    // The services have fixed Redis key names: a claimed database of its own, never another run's.
    const redis = await claimRedisDatabase(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
    releases.push(() => redis.release());
    const amqpNamePrefix = `${run}.`;
    releases.push(async () => (await TestBroker.connect(amqpNamePrefix)).destroy());
    const mailDir = await mkdtemp(join(tmpdir(), `${run}-mail-`));
    const storageDir = await mkdtemp(join(tmpdir(), `${run}-storage-`));
    releases.push(
      () => rm(mailDir, { recursive: true, force: true }),
      () => rm(storageDir, { recursive: true, force: true }),
    );
    return {
      run,
      env: { DATABASE_URL: database.url, REDIS_URL: redis.url, AMQP_NAME_PREFIX: amqpNamePrefix, MAIL_OUTBOX_DIR: mailDir, STORAGE_DIR: storageDir },
      mailDir,
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}
