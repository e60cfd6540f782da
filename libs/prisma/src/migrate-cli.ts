#!/usr/bin/env node
// Usage: node libs/prisma/dist/migrate-cli.js <migrationsDir> <schema> [<more migrationsDirs>...]   (DATABASE_URL from the environment)
import { resolve } from 'node:path';
import { databaseEnv, loadConfig } from '@school/config';
import { applyMigrations } from './migrations.js';

const [migrationsDir, schema, ...moreDirs] = process.argv.slice(2);
if (!migrationsDir || !schema) {
  process.stderr.write('usage: migrate-cli <migrationsDir> <schema> [<more migrationsDirs>...]\n');
  process.exit(2);
}

const { DATABASE_URL } = loadConfig(databaseEnv);
try {
  const { applied } = await applyMigrations({ databaseUrl: DATABASE_URL, schema, migrationsDir: [migrationsDir, ...moreDirs].map((dir) => resolve(dir)) });
  if (applied.length === 0) process.stdout.write(`${schema}: no pending migrations\n`);
  for (const name of applied) process.stdout.write(`${schema}: applied ${name}\n`);
} catch (error) {
  process.stderr.write(`${schema}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
