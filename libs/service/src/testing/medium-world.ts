import type { ModuleMetadata } from '@nestjs/common';
import { migratedTestSchema } from '@school/testing';
import { useCaseContext, type UseCaseContextOptions } from './use-case-context.js';

/** One medium suite's world (docs/testing.md): a context's use cases over a migrated schema of the suite's own. */
export interface MediumWorld<Client> {
  /** The service's client on that schema, for arranging rows and reading what the use cases wrote. */
  prisma: Client;
  /** The suite's schema: the client's, though not the connection's search path. */
  schema: string;
  get<T>(type: abstract new (...args: never[]) => T): T;
  /** Closes the context, then drops the schema. */
  close(): Promise<void>;
}

export interface MediumWorldOptions extends Pick<UseCaseContextOptions, 'imports'> {
  /** The service's folder, whose `prisma/migrations` are replayed, after which `sharedMigrations` (the outbox's, the inbox's). */
  serviceDir: string;
  sharedMigrations?: readonly URL[];
  /** The schema's name starts with it, so a leftover names its suite. */
  prefix: string;
  /** The service's generated Prisma client class; `Client` names its instances. */
  Prisma: UseCaseContextOptions['Prisma'];
  /** What `APP_CONFIG` holds, or how to make it from the schema's database URL. */
  config?: object | ((databaseUrl: string) => object);
  providers: NonNullable<ModuleMetadata['providers']>;
}

/** The service's migrations replayed into a new schema and `useCaseContext` over it; the schema is dropped if the context cannot start. */
export async function mediumWorld<Client>(options: MediumWorldOptions): Promise<MediumWorld<Client>> {
  const db = await migratedTestSchema(options.serviceDir, options.prefix, options.sharedMigrations);
  const starting = async () =>
    useCaseContext({
      Prisma: options.Prisma,
      databaseUrl: db.databaseUrl,
      schema: db.schema,
      config: typeof options.config === 'function' ? options.config(db.databaseUrl) : options.config,
      imports: options.imports,
      providers: options.providers,
    });
  const context = await starting().catch(async (error: unknown) => {
    await db.drop();
    throw error;
  });
  return {
    prisma: context.get<Client>(options.Prisma),
    schema: db.schema,
    get: (type) => context.get(type),
    close: () => context.close().then(() => db.drop()),
  };
}
