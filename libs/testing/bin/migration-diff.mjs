#!/usr/bin/env node
// `node migration-diff.mjs <json>`: prints what `prisma migrate diff --from-migrations <dir>
// --to-schema <file> --script` prints, computed by Prisma's own schema engine in its WebAssembly
// build (the native engine is a download this project does without: docs/decisions). Input:
// { migrationsDir, prismaSchemaPath, databaseUrl }; the shadow database is created and dropped on
// the server of databaseUrl. A process of its own: the engine's WebAssembly runs once per process,
// and outside jest's VM modules, where its promises never settle.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { AsyncLocalStorage } from 'node:async_hooks';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from '@prisma/driver-adapter-utils';

const { migrationsDir, prismaSchemaPath, databaseUrl } = JSON.parse(process.argv[2] ?? '{}');

async function migrationDirectories() {
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8') } },
    })),
  );
}

async function engineClass() {
  const bindingsPath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bindings = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const wasm = await readFile(join(dirname(bindingsPath), 'schema_engine_bg.wasm'));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), { './schema_engine_bg.js': bindings });
  bindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return bindings.SchemaEngine;
}

/** Catalog types Postgres answers the engine's describing queries with, which adapter-pg cannot map. */
const CHAR_OID = 18; // "char": the engine reads these columns as characters
const CATALOG_TYPES_AS_TEXT = new Set([19 /* name */, 194 /* pg_node_tree */, 2205 /* regclass */]);
const TEXT_OID = 25;
/** The indexes of the "char" columns of the query in flight (adapter-pg maps types between its I/O and its answer). */
const charColumns = new AsyncLocalStorage();

/**
 * adapter-pg as the schema engine needs it. Three of its gaps are closed here: it splits a script
 * on every `;` (comments and DO blocks included), so a migration runs whole as psql runs it; it
 * cannot map the catalog types above (nor answer "char" as a character); and it drops the shadow database before closing the pool
 * connected to it, which Postgres refuses. A connection string would override the shadow
 * database's name, so the server is given field by field.
 */
function pgFactory() {
  const url = new URL(databaseUrl);
  const factory = new PrismaPg({
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1) || 'postgres',
  });
  const patched = (adapter) => {
    // A pooled connection the server ends while idle fails the next query, not the process.
    adapter.client.on('error', () => {});
    const performIO = adapter.performIO.bind(adapter);
    const queryRaw = adapter.queryRaw.bind(adapter);
    adapter.performIO = async (query) => {
      const result = await performIO(query);
      result.fields.forEach((field, index) => {
        if (field.dataTypeID === CHAR_OID) charColumns.getStore()?.push(index);
        if (field.dataTypeID === CHAR_OID || CATALOG_TYPES_AS_TEXT.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
      });
      return result;
    };
    adapter.queryRaw = (query) => {
      const marked = [];
      return charColumns.run(marked, async () => {
        const result = await queryRaw(query);
        for (const index of marked) result.columnTypes[index] = ColumnTypeEnum.Character;
        return result;
      });
    };
    adapter.executeScript = async (script) => {
      await adapter.client.query(script);
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patched(await factory.connect()),
    connectToShadowDb: async () => {
      const shadow = patched(await factory.connectToShadowDb());
      const name = shadow.client.options.database;
      shadow.dispose = async () => {
        await shadow.client.end();
        const admin = await factory.connect();
        try {
          await admin.client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
        } finally {
          await admin.dispose();
        }
      };
      return shadow;
    },
  };
}

// Where the engine's Rust panics leave their message (Prisma's CLI keeps the same global).
globalThis.PRISMA_WASM_PANIC_REGISTRY = { set_message: (message) => process.stderr.write(`schema engine panicked: ${message}\n`) };

const schemaFile = { path: prismaSchemaPath, content: await readFile(prismaSchemaPath, 'utf8') };
const SchemaEngine = await engineClass();
const engine = await SchemaEngine.new({ datamodels: [[schemaFile.path, schemaFile.content]] }, () => {}, bindMigrationAwareSqlAdapterFactory(pgFactory()));
const { stdout } = await engine.diff({
  from: {
    tag: 'migrations',
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: 'provider = "postgresql"\n' },
    shadowDbInitScript: '',
    migrationDirectories: await migrationDirectories(),
  },
  to: { tag: 'schemaDatamodel', files: [schemaFile] },
  script: true,
  exitCode: true,
  filters: { externalTables: [], externalEnums: [] },
});
engine.free();
// The adapter's pool would keep its idle connections, and this process, alive for another 10 s.
process.stdout.write(stdout ?? '', () => process.exit(0));
