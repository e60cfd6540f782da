import { fileURLToPath } from 'node:url';
import { databaseEnv, jwtEnv, loadConfig, SERVICES } from '@school/config';
import { keysEnv } from '../keys/keys.config.js';
import { keyRingTimings } from '../keys/keys.options.js';
import { REVOCATION_TTL_SECONDS } from '../sessions/token-lifetimes.js';
import { keysRotate } from './keys-rotate.command.js';

// Entry point of `npm run keys:rotate [-- --print]`; reads the same variables as identity.
const config = loadConfig({ ...databaseEnv, ...jwtEnv, ...keysEnv }, { role: 'identity' });
process.exitCode = await keysRotate(
  process.argv.slice(2),
  {
    databaseUrl: config.DATABASE_URL,
    schema: SERVICES.identity.schema,
    migrationsDir: fileURLToPath(new URL('../../prisma/migrations', import.meta.url)),
    timings: keyRingTimings(config, REVOCATION_TTL_SECONDS),
    environmentKey: config.JWT_PRIVATE_KEY !== undefined,
  },
  { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
);
