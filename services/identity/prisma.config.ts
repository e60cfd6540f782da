// Prisma CLI configuration for this service. The service applies its migrations itself at start-up
// (@school/prisma applyMigrations); with Prisma's schema engine available, `prisma migrate deploy`
// and `prisma migrate status` run from this folder see the same history.
import { defineConfig } from 'prisma/config';

// This service's Postgres schema (contract §1; the same name as SERVICES in @school/config).
const SCHEMA = 'identity';

function withSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', schema);
  return url.toString();
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: withSchema(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres', SCHEMA),
  },
});
