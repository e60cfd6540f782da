import { readFile } from 'node:fs/promises';
import internals from '@prisma/internals';
import type { ExpectedColumn, ExpectedDefault, ExpectedForeignKey, ExpectedSchema, ExpectedTable, IndexShape } from './model.js';
import { enumColumnType, prismaConstraintName, scalarColumnType } from './postgres-types.js';

type Document = Awaited<ReturnType<typeof internals.getDMMF>>;
type Datamodel = Document['datamodel'];
type Model = Datamodel['models'][number];
type Field = Model['fields'][number];
type DatamodelEnum = Datamodel['enums'][number];

/** What the models of a schema.prisma file ask of the database, with every name mapped. */
export async function expectedSchema(prismaSchemaPath: string): Promise<ExpectedSchema> {
  const { datamodel } = await internals.getDMMF({ datamodel: await readFile(prismaSchemaPath, 'utf8') });
  const enums = new Map(datamodel.enums.map((e) => [e.name, e]));
  const models = new Map(datamodel.models.map((m) => [m.name, m]));
  return {
    enums: datamodel.enums.map((e) => ({
      name: e.dbName ?? e.name,
      enumName: e.name,
      values: e.values.map((v) => v.dbName ?? v.name),
    })),
    tables: datamodel.models.map((model) => expectedTable(model, datamodel, models, enums)),
    ignoredTables: implicitJoinTables(datamodel.models, models),
  };
}

function expectedTable(
  model: Model,
  datamodel: Datamodel,
  models: Map<string, Model>,
  enums: Map<string, DatamodelEnum>,
): ExpectedTable {
  const table = tableName(model);
  const indexes: IndexShape[] = [];
  let primaryKey: ExpectedTable['primaryKey'] = null;
  for (const index of datamodel.indexes.filter((i) => i.model === model.name)) {
    const columns = index.fields.map((f) => columnName(model, f.name) + (f.sortOrder === 'desc' ? ' DESC' : ''));
    const plain = index.fields.map((f) => columnName(model, f.name));
    if (index.type === 'id') {
      primaryKey = { name: index.dbName ?? prismaConstraintName(table, plain, 'pkey'), columns };
    } else if (index.type === 'unique') {
      indexes.push({ name: index.dbName ?? prismaConstraintName(table, plain, 'key'), columns, unique: true, method: 'btree' });
    } else if (index.type === 'normal') {
      const method = (index.algorithm ?? 'BTree').toLowerCase();
      indexes.push({ name: index.dbName ?? prismaConstraintName(table, plain, 'idx'), columns, unique: false, method });
    }
  }
  return {
    name: table,
    model: model.name,
    columns: model.fields.filter(isColumn).map((field) => expectedColumn(field, enums)),
    primaryKey,
    indexes,
    foreignKeys: model.fields.flatMap((field) => foreignKey(model, field, models)),
  };
}

function isColumn(field: Field): boolean {
  return field.kind === 'scalar' || field.kind === 'enum' || field.kind === 'unsupported';
}

function expectedColumn(field: Field, enums: Map<string, DatamodelEnum>): ExpectedColumn {
  const dbEnum = field.kind === 'enum' ? enums.get(field.type) : undefined;
  const type =
    field.kind === 'unsupported'
      ? null
      : dbEnum
        ? enumColumnType(dbEnum.dbName ?? dbEnum.name, field.isList)
        : scalarColumnType(field.type, field.nativeType, field.isList);
  return {
    name: field.dbName ?? field.name,
    field: field.name,
    type,
    nullable: field.isList ? null : !field.isRequired,
    default: expectedDefault(field, dbEnum),
  };
}

function expectedDefault(field: Field, dbEnum: DatamodelEnum | undefined): ExpectedDefault {
  const value = field.default;
  if (value === undefined) return { kind: 'none' };
  if (Array.isArray(value)) return { kind: 'literal', value: JSON.stringify(value), numeric: false, comparable: false };
  if (typeof value === 'object' && value !== null && 'name' in value) {
    switch (value.name) {
      case 'autoincrement':
      case 'sequence':
        return { kind: 'sequence' };
      case 'now':
        return { kind: 'now' };
      case 'dbgenerated': {
        const sql = value.args[0];
        return sql === undefined || sql === '' ? { kind: 'any' } : { kind: 'expression', sql: String(sql) };
      }
      default:
        // uuid(), cuid(), nanoid(), ulid(): values the client makes, nothing in the database.
        return { kind: 'none' };
    }
  }
  const scalar = value as string | number | boolean;
  if (dbEnum) {
    const dbValue = dbEnum.values.find((v) => v.name === scalar);
    return { kind: 'literal', value: dbValue?.dbName ?? String(scalar), numeric: false, comparable: true };
  }
  const numeric = ['Int', 'BigInt', 'Float', 'Decimal'].includes(field.type);
  // Dates and JSON are stored in the database's own spelling; only their presence is compared.
  const comparable = !['DateTime', 'Json', 'Bytes'].includes(field.type);
  return { kind: 'literal', value: String(scalar), numeric, comparable };
}

const REFERENTIAL_ACTIONS = new Set(['Cascade', 'Restrict', 'NoAction', 'SetNull', 'SetDefault']);

function foreignKey(model: Model, field: Field, models: Map<string, Model>): ExpectedForeignKey[] {
  const from = field.relationFromFields ?? [];
  const target = models.get(field.type);
  if (field.kind !== 'object' || from.length === 0 || !target) return [];
  const fromFields = from.map((name) => model.fields.find((f) => f.name === name));
  const allRequired = fromFields.every((f) => f?.isRequired);
  const declared = field.relationOnDelete;
  return [
    {
      field: field.name,
      columns: from.map((name) => columnName(model, name)),
      refTable: tableName(target),
      refColumns: (field.relationToFields ?? []).map((name) => columnName(target, name)),
      // Prisma's defaults: Restrict when the relation is required, SetNull when it is optional.
      onDelete: declared && REFERENTIAL_ACTIONS.has(declared) ? declared : allRequired ? 'Restrict' : 'SetNull',
    },
  ];
}

/** Implicit many-to-many relations live in a `_<RelationName>` table no model describes. */
function implicitJoinTables(all: readonly Model[], models: Map<string, Model>): string[] {
  const names = new Set<string>();
  for (const model of all) {
    for (const field of model.fields) {
      if (field.kind !== 'object' || !field.isList || !field.relationName) continue;
      const other = models.get(field.type)?.fields.find((f) => f.relationName === field.relationName && f !== field);
      if (other?.isList) names.add(`_${field.relationName}`);
    }
  }
  return [...names];
}

function tableName(model: Model): string {
  return model.dbName ?? model.name;
}

function columnName(model: Model, fieldName: string): string {
  const field = model.fields.find((f) => f.name === fieldName);
  return field?.dbName ?? fieldName;
}
