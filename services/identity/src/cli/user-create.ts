import { fileURLToPath } from 'node:url';
import { commonEnv, databaseEnv, loadConfig, SERVICES } from '@school/config';
import { hashCostOf, passwordHashCostAtLeastOwaspInProduction, passwordsEnv } from '../passwords/passwords.config.js';
import { userCreate } from './user-create.command.js';

// Entry point of `npm run user:create -- --email E --role admin --password P [--name N]`.
const config = loadConfig({ NODE_ENV: commonEnv.NODE_ENV, ...databaseEnv, ...passwordsEnv }, { rules: [passwordHashCostAtLeastOwaspInProduction] });
process.exitCode = await userCreate(
  process.argv.slice(2),
  {
    databaseUrl: config.DATABASE_URL,
    schema: SERVICES.identity.schema,
    hashCost: hashCostOf(config),
    migrationsDir: fileURLToPath(new URL('../../prisma/migrations', import.meta.url)),
  },
  { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
);
