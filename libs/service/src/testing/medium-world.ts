import { useCaseContext, type UseCaseContextOptions } from './use-case-context.js';

/** A migrated test schema of the suite's own (`migratedTestSchema` of `@school/testing`). */
export interface OwnTestSchema {
  databaseUrl: string;
  schema: string;
  drop(): Promise<void>;
}

/** One medium suite's world: a context's use cases over a migrated schema of its own (docs/testing.md). */
export interface MediumWorld<Client> {
  /** The context's client, for arranging rows and reading what the use cases wrote. */
  prisma: Client;
  get<T>(type: abstract new (...args: never[]) => T): T;
  /** Closes the context, then drops the schema. */
  close(): Promise<void>;
}

export type MediumWorldOptions<Client> = Omit<UseCaseContextOptions, 'databaseUrl' | 'schema' | 'Prisma'> & {
  Prisma: UseCaseContextOptions['Prisma'] & (abstract new (...args: never[]) => Client);
};

/** useCaseContext over `db`, which it owns: dropped when the context cannot start, and on close. */
export async function mediumWorld<Client>(db: OwnTestSchema, options: MediumWorldOptions<Client>): Promise<MediumWorld<Client>> {
  const context = await useCaseContext({ ...options, databaseUrl: db.databaseUrl, schema: db.schema }).catch(async (error: unknown) => {
    await db.drop();
    throw error;
  });
  const close = () => context.close().then(() => db.drop());
  return { prisma: context.get(options.Prisma), get: (type) => context.get(type), close };
}
