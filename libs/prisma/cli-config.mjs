// The Prisma CLI configuration of a service (its `prisma.config.ts` calls this). Plain JavaScript so
// the CLI loads it before anything is built. Services apply their migrations themselves at start-up
// (applyMigrations); with Prisma's schema engine available, `prisma migrate deploy` and
// `prisma migrate status` run from a service folder see the same history, in the service's schema.
import { defineConfig } from 'prisma/config';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** `schema`: the service's Postgres schema, as SERVICES in @school/config names it. */
export function servicePrismaConfig(schema) {
  const url = new URL(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  url.searchParams.set('schema', schema);
  return defineConfig({
    schema: 'prisma/schema.prisma',
    migrations: { path: 'prisma/migrations' },
    datasource: { url: url.toString() },
  });
}
