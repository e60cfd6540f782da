import pg from 'pg';
import { databaseEnv, parseConfig } from '@school/config';

/** The database tests use: `DATABASE_URL`, or the local default of contract §1. */
export function testDatabaseUrl(): string {
  return parseConfig(databaseEnv).DATABASE_URL;
}

/** Runs `work` on a connection of its own, closed afterwards. */
export async function withConnection<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
