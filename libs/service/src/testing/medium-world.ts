import type { ModuleMetadata } from '@nestjs/common';
import { migratedTestSchema } from '@school/testing';
import { useCaseContext, type UseCaseContextOptions } from './use-case-context.js';

/** One medium suite's world (docs/testing.md): a context's use cases over a migrated schema of the suite's own. */
export interface MediumWorld<Client> {
  /** The service's client on that schema, for arranging rows and reading what the use cases wrote. */
  prisma: Client;
  get<T>(type: abstract new (...args: never[]) => T): T;
  /** Closes the context, then drops the schema. */
  close(): Promise<void>;
}

export interface MediumWorldOptions<Client> extends Pick<UseCaseContextOptions, 'imports'> {
  /** The service's folder, whose `prisma/migrations` are replayed, after which `sharedMigrations` (the outbox's, the inbox's). */
  serviceDir: string;
  sharedMigrations?: readonly URL[];
  /** The schema's name starts with it, so a leftover names its suite. */
  prefix: string;
  Prisma: abstract new (...args: never[]) => Client;
  /** What `APP_CONFIG` holds, or how to make it from the schema's database URL. */
  config?: object | ((databaseUrl: string) => object);
  providers: NonNullable<ModuleMetadata['providers']>;
}

/** The service's migrations replayed into a new schema and `useCaseContext` over it; the schema is dropped if the context cannot start. */
export async function mediumWorld<Client>(options: MediumWorldOptions<Client>): Promise<MediumWorld<Client>> {
  const db = await migratedTestSchema(options.serviceDir, options.prefix, options.sharedMigrations);
  try {
    const config = typeof options.config === 'function' ? options.config(db.databaseUrl) : options.config;
    const context = await useCaseContext({
      Prisma: options.Prisma as UseCaseContextOptions['Prisma'],
      databaseUrl: db.databaseUrl,
      schema: db.schema,
      config,
      imports: options.imports,
      providers: options.providers,
    });
    return {
      prisma: context.get(options.Prisma),
      get: (type) => context.get(type),
      async close() {
        await context.close();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
