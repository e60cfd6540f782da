// The tables of the write ceiling (bench/src/ceilings/write-server.ts), and starting it. Each table is a
// copy of the product's (`LIKE ... INCLUDING ALL`: columns, defaults, checks, indexes) in a schema of
// its own, made after the product migrated the bench database, with the product's foreign keys
// between the copied tables and its outbox NOTIFY trigger added back (LIKE copies neither), so a
// write costs Postgres what the product's does while the product's own rows stay untouched.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { withConnection } from '@school/testing';
import { startProcess, waitFor } from '../support.js';

export const CEILING_SCHEMA = 'ceiling';
const SERVER = fileURLToPath(new URL('./write-server.js', import.meta.url));

/** The product tables a ceiling write touches, by the product's schema. */
export const FEEDBACK_TABLES = { schema: 'feedback', tables: ['feedback_submissions', 'outbox_events'] };
export const REFRESH_TABLES = { schema: 'identity', tables: ['users', 'provider_accounts', 'sessions', 'refresh_tokens'] };

/**
 * Copies `tables` of `schema` into CEILING_SCHEMA; `copyRows`: also their rows (the accounts a
 * refresh reads). Idempotent per table set: a table already copied is left as it is.
 */
export interface ProductTables {
  schema: string;
  tables: string[];
}

export function copyTables(databaseUrl: string, { schema, tables }: ProductTables, { copyRows = [] }: { copyRows?: string[] } = {}): Promise<void> {
  return withConnection(databaseUrl, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${CEILING_SCHEMA}`);
    for (const table of tables) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${CEILING_SCHEMA}.${table} (LIKE ${schema}.${table} INCLUDING ALL)`);
    }
    // pg_get_constraintdef names a table of the search path unqualified: read in the product's
    // schema, applied in the ceiling's, a foreign key then points at the copy.
    await client.query(`SET search_path TO ${schema}`);
    const { rows: foreignKeys } = await client.query(
      `SELECT c.conname, c.conrelid::regclass::text AS "table", pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c
        WHERE c.contype = 'f' AND c.connamespace = $1::regnamespace
          AND c.conrelid::regclass::text = ANY($2) AND c.confrelid::regclass::text = ANY($2)`,
      [schema, tables],
    );
    const { rows: triggers } = await client.query(
      `SELECT t.tgname, c.relname AS "table", pg_get_triggerdef(t.oid) AS definition
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = $1::regnamespace AND c.relname = ANY($2)`,
      [schema, tables],
    );
    await client.query(`SET search_path TO ${CEILING_SCHEMA}, ${schema}`);
    for (const { conname, table, definition } of foreignKeys) {
      const exists = await client.query(`SELECT 1 FROM pg_constraint WHERE conname = $1 AND connamespace = $2::regnamespace`, [conname, CEILING_SCHEMA]);
      if (exists.rowCount === 0) await client.query(`ALTER TABLE ${CEILING_SCHEMA}.${table} ADD CONSTRAINT ${conname} ${definition}`);
    }
    for (const { tgname, table, definition } of triggers) {
      // The definition names the product's table, qualified: it is pointed at the copy, and keeps
      // calling the product's function (which names its NOTIFY channel after the table's schema).
      const exists = await client.query(`SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = $1 AND c.relnamespace = $2::regnamespace`, [
        tgname,
        CEILING_SCHEMA,
      ]);
      if (exists.rowCount !== 0) continue;
      const onCopy = definition.replace(new RegExp(` ON (?:"?${schema}"?\\.)?"?${table}"? `), ` ON ${CEILING_SCHEMA}.${table} `);
      if (onCopy === definition) throw new Error(`cannot point trigger ${tgname} at the copy: ${definition}`);
      await client.query(onCopy);
    }
    for (const table of copyRows) await client.query(`INSERT INTO ${CEILING_SCHEMA}.${table} SELECT * FROM ${schema}.${table} ON CONFLICT DO NOTHING`);
  });
}

/**
 * `count` live sessions of the user with `email` on `surface` in the ceiling's copy, as identity's
 * login writes them; answers their refresh tokens.
 */
export function ceilingSessions(databaseUrl: string, email: string, surface: string, count: number): Promise<string[]> {
  return withConnection(databaseUrl, async (client) => {
    const { rows } = await client.query(`SELECT id FROM ${CEILING_SCHEMA}.users WHERE email = $1`, [email]);
    if (rows.length === 0) throw new Error(`no user ${email} in the ceiling's copy of the users table`);
    const tokens = Array.from({ length: count }, () => randomBytes(32).toString('base64url'));
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    for (const token of tokens) {
      await client.query(
        `WITH created AS (
           INSERT INTO ${CEILING_SCHEMA}.sessions (id, user_id, surface, expires_at) VALUES ($1::uuid, $2, $3, $4) RETURNING id
         )
         INSERT INTO ${CEILING_SCHEMA}.refresh_tokens (token_hash, session_id) SELECT $5, id FROM created`,
        [randomUUID(), rows[0].id, surface, expiresAt, createHash('sha256').update(token).digest('hex')],
      );
    }
    return tokens;
  });
}

/**
 * Starts the write ceiling on `port` against `databaseUrl` (its tables copied first), signing with
 * `privateKeyPem`; answers its base URL once it listens.
 */
export async function startWriteCeiling({ databaseUrl, port, privateKeyPem }: { databaseUrl: string; port: number; privateKeyPem: string }): Promise<string> {
  startProcess('write-ceiling', SERVER, { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', CEILING_SCHEMA, JWT_PRIVATE_KEY: privateKeyPem });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`);
  return url;
}
