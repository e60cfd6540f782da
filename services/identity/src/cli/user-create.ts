import { fileURLToPath } from 'node:url';
import { databaseEnv, loadConfig, SERVICES } from '@school/config';
import { userCreate } from './user-create.command.js';

// Entry point of `npm run user:create -- --email E --role admin --password P [--name N]`.
const { DATABASE_URL } = loadConfig(databaseEnv);
process.exitCode = await userCreate(
  process.argv.slice(2),
  {
    databaseUrl: DATABASE_URL,
    schema: SERVICES.identity.schema,
    migrationsDir: fileURLToPath(new URL('../../prisma/migrations', import.meta.url)),
  },
  { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
);
