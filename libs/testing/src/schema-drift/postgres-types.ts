import type { ExpectedColumnType } from './model.js';

// How Prisma's PostgreSQL connector stores each type, as information_schema reports it.
interface NativeType {
  dataType: string;
  udtName: string;
  /** Which argument the type takes, and its value when the attribute gives none. */
  argument?: 'length' | 'numeric' | 'datetime';
  defaultArgument?: number | null;
}

const NATIVE_TYPES: Record<string, NativeType> = {
  Text: { dataType: 'text', udtName: 'text' },
  Char: { dataType: 'character', udtName: 'bpchar', argument: 'length', defaultArgument: 1 },
  VarChar: { dataType: 'character varying', udtName: 'varchar', argument: 'length', defaultArgument: null },
  Bit: { dataType: 'bit', udtName: 'bit', argument: 'length', defaultArgument: 1 },
  VarBit: { dataType: 'bit varying', udtName: 'varbit', argument: 'length', defaultArgument: null },
  Uuid: { dataType: 'uuid', udtName: 'uuid' },
  Xml: { dataType: 'xml', udtName: 'xml' },
  Inet: { dataType: 'inet', udtName: 'inet' },
  Citext: { dataType: 'USER-DEFINED', udtName: 'citext' },
  Boolean: { dataType: 'boolean', udtName: 'bool' },
  Integer: { dataType: 'integer', udtName: 'int4' },
  SmallInt: { dataType: 'smallint', udtName: 'int2' },
  Oid: { dataType: 'oid', udtName: 'oid' },
  BigInt: { dataType: 'bigint', udtName: 'int8' },
  DoublePrecision: { dataType: 'double precision', udtName: 'float8' },
  Real: { dataType: 'real', udtName: 'float4' },
  Decimal: { dataType: 'numeric', udtName: 'numeric', argument: 'numeric' },
  Money: { dataType: 'money', udtName: 'money' },
  Timestamp: { dataType: 'timestamp without time zone', udtName: 'timestamp', argument: 'datetime', defaultArgument: 6 },
  Timestamptz: { dataType: 'timestamp with time zone', udtName: 'timestamptz', argument: 'datetime', defaultArgument: 6 },
  Date: { dataType: 'date', udtName: 'date' },
  Time: { dataType: 'time without time zone', udtName: 'time', argument: 'datetime', defaultArgument: 6 },
  Timetz: { dataType: 'time with time zone', udtName: 'timetz', argument: 'datetime', defaultArgument: 6 },
  Json: { dataType: 'json', udtName: 'json' },
  JsonB: { dataType: 'jsonb', udtName: 'jsonb' },
  ByteA: { dataType: 'bytea', udtName: 'bytea' },
};

// The native type Prisma uses for a scalar without an @db attribute.
const SCALAR_DEFAULTS: Record<string, [string, string[]]> = {
  String: ['Text', []],
  Boolean: ['Boolean', []],
  Int: ['Integer', []],
  BigInt: ['BigInt', []],
  Float: ['DoublePrecision', []],
  Decimal: ['Decimal', ['65', '30']],
  DateTime: ['Timestamp', ['3']],
  Json: ['JsonB', []],
  Bytes: ['ByteA', []],
};

/** The column type Prisma creates for a scalar field, or null when this table does not know it. */
export function scalarColumnType(
  scalar: string,
  nativeType: readonly [string, readonly string[]] | null | undefined,
  isList: boolean,
): ExpectedColumnType | null {
  const [name, args] = nativeType ?? SCALAR_DEFAULTS[scalar] ?? [];
  const native = name === undefined ? undefined : NATIVE_TYPES[name];
  if (!native || !args) return null;
  if (isList) return { dataType: 'ARRAY', udtName: `_${native.udtName}`, label: `${native.dataType}[]` };

  const numbers = args.map(Number);
  const type: ExpectedColumnType = { dataType: native.dataType, udtName: native.udtName, label: native.dataType };
  if (native.argument === 'length') {
    type.length = numbers[0] ?? native.defaultArgument ?? null;
    type.label += type.length === null ? '' : `(${type.length})`;
  } else if (native.argument === 'datetime') {
    type.datetimePrecision = numbers[0] ?? native.defaultArgument ?? null;
    type.label += `(${type.datetimePrecision})`;
  } else if (native.argument === 'numeric') {
    type.precision = numbers[0] ?? null;
    type.scale = numbers[1] ?? (numbers[0] === undefined ? null : 0);
    type.label += type.precision === null ? '' : `(${type.precision},${type.scale})`;
  }
  return type;
}

export function enumColumnType(enumName: string, isList: boolean): ExpectedColumnType {
  return isList
    ? { dataType: 'ARRAY', udtName: `_${enumName}`, label: `${enumName}[]` }
    : { dataType: 'USER-DEFINED', udtName: enumName, label: `enum ${enumName}` };
}

/** How information_schema's description of a live column reads, in the same notation. */
export function describeLiveType(column: {
  dataType: string;
  udtName: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  datetimePrecision: number | null;
}): string {
  if (column.dataType === 'USER-DEFINED') return `enum ${column.udtName}`;
  if (column.dataType === 'ARRAY') return `${column.udtName.replace(/^_/, '')}[]`;
  if (column.length !== null && /char|bit/.test(column.dataType)) return `${column.dataType}(${column.length})`;
  if (column.dataType === 'numeric' && column.precision !== null) return `numeric(${column.precision},${column.scale})`;
  if (/^(timestamp|time) /.test(column.dataType)) return `${column.dataType}(${column.datetimePrecision})`;
  return column.dataType;
}

// Prisma's constraint and index names on PostgreSQL (psl ConstraintNames): `<table>_pkey`,
// `<table>_<columns>_key`, `<table>_<columns>_idx`, `<table>_<columns>_fkey`, cut to 63 bytes.
const MAX_IDENTIFIER_LENGTH = 63;

export function prismaConstraintName(table: string, columns: readonly string[], suffix: 'pkey' | 'key' | 'idx' | 'fkey'): string {
  const tail = `_${suffix}`;
  const base = suffix === 'pkey' ? table : `${table}_${columns.join('_')}`;
  return `${base.slice(0, MAX_IDENTIFIER_LENGTH - tail.length)}${tail}`;
}
