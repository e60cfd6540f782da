// Prisma's own schema engine (its WebAssembly build, shipped in node_modules) driven through the pg
// driver adapter: the reference our applier is checked against. The native engine that
// `prisma migrate` downloads is not available here; this build runs the same Rust code.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';

// The project's `lib` has no WebAssembly declarations; this is the little used here.
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

interface WasmRuntime {
  __wbg_set_wasm(exports: Record<string, unknown>): void;
  SchemaEngine: {
    new: (options: { datamodels: [string, string][] }, log: (line: string) => void, adapter: object) => Promise<SchemaEngine>;
  };
}

let runtime: Promise<WasmRuntime> | undefined;

async function loadRuntime(): Promise<WasmRuntime> {
  const bindings = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as WasmRuntime;
  const packageDir = dirname(createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm'));
  const bytes = await readFile(join(packageDir, 'schema_engine_bg.wasm'));
  // The engine arms a 10 s timer around its advisory lock and never clears it; unref it so a test
  // process can exit as soon as its work is done.
  const imports: Record<string, unknown> = { ...bindings };
  for (const name of Object.keys(imports).filter((key) => key.startsWith('__wbg_setTimeout_'))) {
    imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
  }
  const instance = new wasm.Instance(new wasm.Module(bytes), { './schema_engine_bg.js': imports });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return bindings;
}

export interface PrismaEngine {
  engine: SchemaEngine;
  migrationsList(migrationsDir: string): Promise<MigrationList>;
  close(): Promise<void>;
}

/**
 * An engine working on `schema`. Its connections get `search_path = schema`, which is what the
 * native engine does for `?schema=`; without it the engine would write to `public`.
 */
export async function prismaEngine(databaseUrl: string, schema: string): Promise<PrismaEngine> {
  runtime ??= loadRuntime();
  const { SchemaEngine } = await runtime;
  const pool = new pg.Pool({ connectionString: databaseUrl, options: `-c search_path="${schema}"`, max: 2 });
  const factory = new PrismaPg(pool, { schema });
  const datamodel = 'datasource db {\n  provider = "postgresql"\n}\n';
  const engine = await SchemaEngine.new({ datamodels: [['schema.prisma', datamodel]] }, () => undefined, bindMigrationAwareSqlAdapterFactory(factory));
  return {
    engine,
    migrationsList: (migrationsDir) => migrationsList(migrationsDir),
    async close() {
      engine.free();
      await pool.end();
    },
  };
}

/** What the Prisma CLI hands the engine: every folder's script, read from disk. */
async function migrationsList(baseDir: string): Promise<MigrationList> {
  const entries = await readdir(baseDir, { withFileTypes: true });
  const lock = entries.find((entry) => entry.isFile() && entry.name === 'migration_lock.toml');
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: lock ? await readFile(join(baseDir, lock.name), 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      folders.map(async (path) => ({
        path,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(join(baseDir, path, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

export const NO_FILTERS = { externalTables: [], externalEnums: [] };
