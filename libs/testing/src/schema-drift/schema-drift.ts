import { withConnection } from '../database.js';
import { expectedSchema } from './expected-schema.js';
import { liveSchema } from './live-schema.js';
import type {
  ExpectedColumn,
  ExpectedDefault,
  ExpectedSchema,
  ExpectedTable,
  IndexShape,
  LiveColumn,
  LiveIndex,
  LiveSchema,
} from './model.js';
import { describeLiveType } from './postgres-types.js';

export interface SchemaDriftOptions {
  databaseUrl: string;
  /** The Postgres schema the migrations were applied to. */
  schema: string;
  prismaSchemaPath: string;
}

/**
 * Differences between the models of a schema.prisma file and the tables its migrations built, one
 * readable line each; empty when they agree. Compared: tables and columns (after @@map/@map),
 * column types (scalar and @db native types), nullability, database defaults, primary keys,
 * unique and plain indexes (columns, order, method, names), foreign keys and enums.
 * Objects Prisma cannot express are allowed: partial and expression indexes, check constraints.
 * `_prisma_migrations` is ignored.
 */
export async function schemaDrift(options: SchemaDriftOptions): Promise<string[]> {
  const expected = await expectedSchema(options.prismaSchemaPath);
  const live = await withConnection(options.databaseUrl, (client) => liveSchema(client, options.schema));
  return compareSchemas(expected, live);
}

export function compareSchemas(expected: ExpectedSchema, live: LiveSchema): string[] {
  const drift: string[] = [];

  for (const expectedEnum of expected.enums) {
    const values = live.enums.get(expectedEnum.name);
    if (!values) drift.push(`enum "${expectedEnum.name}" (enum ${expectedEnum.enumName}) is missing`);
    else if (values.join(',') !== expectedEnum.values.join(',')) {
      drift.push(`enum "${expectedEnum.name}" has values (${values.join(', ')}), schema.prisma expects (${expectedEnum.values.join(', ')})`);
    }
  }
  const enumNames = new Set(expected.enums.map((e) => e.name));
  for (const name of live.enums.keys()) {
    if (!enumNames.has(name)) drift.push(`enum "${name}" exists but schema.prisma has no enum for it`);
  }

  const tableNames = new Set(expected.tables.map((t) => t.name));
  for (const table of [...expected.tables].sort((a, b) => a.name.localeCompare(b.name))) {
    const columns = live.tables.get(table.name);
    if (!columns) {
      drift.push(`table "${table.name}" (model ${table.model}) is missing`);
      continue;
    }
    drift.push(...compareTable(table, columns, live));
  }
  for (const name of [...live.tables.keys()].sort()) {
    if (!tableNames.has(name) && !expected.ignoredTables.includes(name)) {
      drift.push(`table "${name}" exists but no model maps to it`);
    }
  }
  return drift;
}

function compareTable(table: ExpectedTable, columns: LiveColumn[], live: LiveSchema): string[] {
  const drift: string[] = [];
  const byName = new Map(columns.map((c) => [c.name, c]));
  for (const column of table.columns) {
    const liveColumn = byName.get(column.name);
    if (!liveColumn) drift.push(`column ${table.name}.${column.name} (${table.model}.${column.field}) is missing`);
    else drift.push(...compareColumn(`${table.name}.${column.name}`, column, liveColumn));
  }
  const expectedColumns = new Set(table.columns.map((c) => c.name));
  for (const column of columns) {
    if (!expectedColumns.has(column.name)) {
      drift.push(`column ${table.name}.${column.name} exists but no field of ${table.model} maps to it`);
    }
  }

  const indexes = live.indexes.filter((i) => i.table === table.name);
  drift.push(...comparePrimaryKey(table, indexes.find((i) => i.primary)));
  drift.push(...compareIndexes(table, indexes.filter((i) => !i.primary)));
  drift.push(...compareForeignKeys(table, live));
  return drift;
}

function compareColumn(label: string, expected: ExpectedColumn, live: LiveColumn): string[] {
  const drift: string[] = [];
  const type = expected.type;
  if (type) {
    const matches =
      live.dataType === type.dataType &&
      live.udtName === type.udtName &&
      (type.length === undefined || live.length === type.length) &&
      (type.precision === undefined || live.precision === type.precision) &&
      (type.scale === undefined || live.scale === type.scale) &&
      (type.datetimePrecision === undefined || live.datetimePrecision === type.datetimePrecision);
    if (!matches) drift.push(`column ${label}: type is ${describeLiveType(live)}, schema.prisma expects ${type.label}`);
  }
  if (expected.nullable !== null && expected.nullable !== live.nullable) {
    drift.push(`column ${label}: is ${live.nullable ? 'nullable' : 'NOT NULL'}, schema.prisma expects ${expected.nullable ? 'nullable' : 'NOT NULL'}`);
  }
  const problem = defaultProblem(expected.default, live);
  if (problem) drift.push(`column ${label}: ${problem}`);
  return drift;
}

function defaultProblem(expected: ExpectedDefault, live: LiveColumn): string | undefined {
  const actual = live.default;
  const shown = actual ?? 'no default';
  switch (expected.kind) {
    case 'any':
      return undefined;
    case 'none':
      return actual === null && !live.identity ? undefined : `has default ${live.identity ? 'identity' : actual}, schema.prisma expects none`;
    case 'sequence':
      return live.identity || actual?.startsWith('nextval(') ? undefined : `default is ${shown}, schema.prisma expects autoincrement()`;
    case 'now':
      return actual !== null && /^(now\(\)|CURRENT_TIMESTAMP)/i.test(actual) ? undefined : `default is ${shown}, schema.prisma expects now()`;
    case 'expression':
      return actual !== null ? undefined : `has no default, schema.prisma expects dbgenerated("${expected.sql}")`;
    case 'literal': {
      if (actual === null) return `has no default, schema.prisma expects ${expected.value}`;
      if (!expected.comparable) return undefined;
      const value = literalValue(actual);
      const same = expected.numeric ? Number(value) === Number(expected.value) : value === expected.value;
      return same ? undefined : `default is ${actual}, schema.prisma expects ${expected.value}`;
    }
  }
}

/** `'it''s'::character varying` -> `it's`; `(-1)` -> `-1`. */
function literalValue(sql: string): string {
  let value = sql.trim();
  for (let previous = ''; previous !== value; ) {
    previous = value;
    value = value.replace(/::[\w\s".[\]]+$/, '').trim();
    if (/^\(.*\)$/s.test(value)) value = value.slice(1, -1).trim();
  }
  const quoted = /^'(.*)'$/s.exec(value);
  return quoted ? quoted[1]!.replace(/''/g, "'") : value;
}

function comparePrimaryKey(table: ExpectedTable, live: LiveIndex | undefined): string[] {
  const expected = table.primaryKey;
  if (!expected && !live) return [];
  if (!expected) return [`table ${table.name}: has primary key (${live!.columns.join(', ')}), schema.prisma declares none`];
  if (!live) return [`table ${table.name}: primary key (${expected.columns.join(', ')}) is missing`];
  const drift: string[] = [];
  if (live.columns.join(',') !== expected.columns.join(',')) {
    drift.push(`table ${table.name}: primary key is (${live.columns.join(', ')}), schema.prisma expects (${expected.columns.join(', ')})`);
  }
  if (live.name !== expected.name) {
    drift.push(`table ${table.name}: primary key is named "${live.name}", schema.prisma expects "${expected.name}"`);
  }
  return drift;
}

function describeIndex(index: IndexShape): string {
  const method = index.method === 'btree' ? '' : ` using ${index.method}`;
  return `${index.unique ? 'unique index' : 'index'} on (${index.columns.join(', ')})${method}`;
}

function compareIndexes(table: ExpectedTable, live: LiveIndex[]): string[] {
  const drift: string[] = [];
  // Partial and expression indexes are beyond schema.prisma: allowed, and never a match.
  const expressible = live.filter((i) => !i.partial && !i.expression);
  const unmatched = new Set(expressible);
  const sameShape = (a: IndexShape, b: IndexShape) =>
    a.unique === b.unique && a.method === b.method && a.columns.join(',') === b.columns.join(',');

  for (const index of table.indexes) {
    const candidates = [...unmatched].filter((l) => sameShape(l, index));
    const match = candidates.find((l) => l.name === index.name) ?? candidates[0];
    if (!match) {
      drift.push(`table ${table.name}: ${describeIndex(index)} is missing (Prisma would name it "${index.name}")`);
      continue;
    }
    unmatched.delete(match);
    if (match.name !== index.name) {
      drift.push(`table ${table.name}: ${describeIndex(index)} is named "${match.name}", schema.prisma expects "${index.name}"`);
    }
  }
  for (const index of unmatched) {
    drift.push(`table ${table.name}: ${describeIndex(index)} "${index.name}" exists but schema.prisma does not declare it`);
  }
  return drift;
}

const ON_DELETE: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

function compareForeignKeys(table: ExpectedTable, live: LiveSchema): string[] {
  const drift: string[] = [];
  const unmatched = new Set(live.foreignKeys.filter((fk) => fk.table === table.name));
  for (const expected of table.foreignKeys) {
    const target = `${expected.refTable}(${expected.refColumns.join(', ')})`;
    const match = [...unmatched].find(
      (fk) =>
        fk.columns.join(',') === expected.columns.join(',') &&
        fk.refTable === expected.refTable &&
        fk.refColumns.join(',') === expected.refColumns.join(','),
    );
    if (!match) {
      drift.push(`table ${table.name}: foreign key (${expected.columns.join(', ')}) -> ${target} for ${table.model}.${expected.field} is missing`);
      continue;
    }
    unmatched.delete(match);
    const onDelete = ON_DELETE[match.onDelete] ?? match.onDelete;
    if (onDelete !== expected.onDelete) {
      drift.push(`table ${table.name}: foreign key "${match.name}" deletes with ${onDelete}, schema.prisma expects ${expected.onDelete}`);
    }
  }
  for (const fk of unmatched) {
    drift.push(`table ${table.name}: foreign key "${fk.name}" (${fk.columns.join(', ')}) -> ${fk.refTable} exists but no relation declares it`);
  }
  return drift;
}
