import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { PrismaPg } from '@prisma/adapter-pg';
import { DatabaseSchema } from '@school/service';
import { migratedTestSchema, quoteIdent, withConnection, type MigratedTestSchema } from '@school/testing';
import { UserDirectoryRepository } from '../../src/accounts/user-directory.repository.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');
const SEEDED = 5_000;
const PAGE = 20;

interface Statement {
  query: string;
  params: unknown[];
}

/** What EXPLAIN ANALYZE shows a node of a plan (the fields read here). */
interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows of `users` a plan's scans read: those they returned and those they read and dropped. */
function usersRowsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'users'
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + usersRowsRead(child), 0);
}

/**
 * GET /api/users at any size (issue 36, docs/decisions/0019): the list's repository over a
 * migrated schema holding thousands of accounts. Each statement it sends is run again under
 * EXPLAIN ANALYZE, so what it reads is counted, not timed. The wire (envelope, paging, `%` and `_`
 * literal) is users.test.ts.
 */
describe('the users directory as it grows (medium)', () => {
  /** What the repository sent, as Prisma logged it. */
  const statements: Statement[] = [];
  let db: MigratedTestSchema;
  let prisma: PrismaClient;
  let directory: UserDirectoryRepository;
  let users: string;

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'identity_directory_medium');
    users = `${quoteIdent(db.schema)}.users`;
    const logged = new PrismaClient({
      adapter: new PrismaPg({ connectionString: db.databaseUrl, max: 4 }, { schema: db.schema }),
      log: [{ emit: 'event', level: 'query' }],
    });
    logged.$on('query', (event) => statements.push({ query: event.query, params: JSON.parse(event.params) as unknown[] }));
    prisma = logged;
    directory = new UserDirectoryRepository(prisma, new DatabaseSchema(db.schema));
    // Names and emails of random letters and digits, as people's look to a trigram; none holds 'zq7' but the three below.
    await withConnection(db.databaseUrl, async (client) => {
      await client.query(
        `INSERT INTO ${users} (public_id, email, name, role, updated_at)
         SELECT gen_random_uuid(), 'p' || g || '.' || r.local || '@example.com', r.name, 'customer', now()
           FROM generate_series(1, $1::int) g
          CROSS JOIN LATERAL (SELECT replace(string_agg(substr('abcdefghijklmnopqrstuvwxy0123456789', 1 + floor(random() * 35)::int, 1), ''), 'q', 'x') AS local,
                                     'Person ' || g AS name FROM generate_series(1, 8) WHERE g > 0) r`,
        [SEEDED],
      );
      await client.query(`ANALYZE ${users}`);
    });
    for (const name of ['Zq7 First', 'Second zQ7', 'Third']) {
      await prisma.user.create({ data: { publicId: randomUUID(), email: `${name === 'Third' ? 'third.zq7' : randomUUID()}@example.com`, name, role: 'customer' } });
    }
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  beforeEach(() => {
    statements.length = 0;
  });

  /** Rows of `users` the statements sent since the test began read, each statement run again under EXPLAIN ANALYZE. */
  async function rowsReadSoFar(): Promise<number> {
    const reads = statements.filter((statement) => statement.query.trimStart().startsWith('SELECT'));
    expect(reads.length).toBeGreaterThan(0);
    return withConnection(db.databaseUrl, async (client) => {
      let total = 0;
      for (const { query, params } of reads) {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params);
        total += usersRowsRead(rows[0]!['QUERY PLAN'][0].Plan);
      }
      return total;
    });
  }

  const live = () => prisma.user.count({ where: { deletedAt: null } });
  const listedCount = async () => (await directory.list({ order: 'asc', skip: 0, take: 1 })).count;
  const newUser = (extra: { deletedAt?: Date } = {}) => ({ publicId: randomUUID(), email: `${randomUUID()}@example.com`, name: 'Counted', role: 'customer' as const, ...extra });

  it('pages the unfiltered list reading its page of users, not the table, with the count of live accounts', async () => {
    const { accounts, count } = await directory.list({ order: 'asc', skip: 0, take: PAGE });
    expect(accounts).toHaveLength(PAGE);
    expect(count).toBe(await live());
    statements.length = 0;
    await directory.list({ order: 'desc', skip: 0, take: PAGE });
    expect(await rowsReadSoFar()).toBeLessThanOrEqual(PAGE);
  });

  it('finds a substring of name or email case-insensitively, reading the matches rather than the table', async () => {
    const { accounts, count } = await directory.list({ search: 'ZQ7', order: 'asc', skip: 0, take: PAGE });
    expect(accounts.map((account) => account.user.name)).toEqual(['Zq7 First', 'Second zQ7', 'Third']);
    expect(count).toBe(3);
    expect(await rowsReadSoFar()).toBeLessThan(100);
  });

  it('keeps the count exact through inserts, bulk inserts, soft deletes, other updates and deletes, one writer or many at once', async () => {
    const expected = await live();
    expect(await listedCount()).toBe(expected);

    const one = await prisma.user.create({ data: newUser() });
    await prisma.user.createMany({ data: [newUser(), newUser(), newUser({ deletedAt: new Date() })] });
    expect(await listedCount()).toBe(expected + 3);

    await prisma.user.update({ where: { id: one.id }, data: { deletedAt: new Date() } });
    await prisma.user.update({ where: { id: one.id }, data: { deletedAt: new Date(), name: 'Deleted again' } });
    await prisma.user.updateMany({ where: { name: 'Counted', deletedAt: null }, data: { name: 'Renamed' } });
    expect(await listedCount()).toBe(expected + 2);

    await prisma.user.delete({ where: { id: one.id } });
    await prisma.user.deleteMany({ where: { name: 'Renamed' } });
    expect(await listedCount()).toBe(expected);

    await Promise.all(Array.from({ length: 12 }, () => prisma.$transaction([prisma.user.create({ data: newUser() }), prisma.user.create({ data: newUser() })])));
    expect(await listedCount()).toBe(expected + 24);
    expect(await live()).toBe(expected + 24);
  });
});
