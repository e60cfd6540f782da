// The two sides the drift check compares: what schema.prisma describes and what Postgres holds.

export interface ExpectedColumnType {
  /** `information_schema.columns.data_type`, e.g. `character varying`, `USER-DEFINED`, `ARRAY`. */
  dataType: string;
  /** `udt_name`, e.g. `varchar`, the enum's name, `_text` for a text array. */
  udtName: string;
  /** Checked only when defined; null means "none" (e.g. `VarChar` without a length). */
  length?: number | null;
  precision?: number | null;
  scale?: number | null;
  datetimePrecision?: number | null;
  /** How a reader would write it, for messages. */
  label: string;
}

export type ExpectedDefault =
  | { kind: 'none' }
  /** `dbgenerated()` without an expression: the database may have any default or none. */
  | { kind: 'any' }
  | { kind: 'sequence' }
  | { kind: 'now' }
  | { kind: 'expression'; sql: string }
  | { kind: 'literal'; value: string; numeric: boolean; comparable: boolean };

export interface ExpectedColumn {
  name: string;
  field: string;
  /** null for `Unsupported(...)` fields and scalar types this checker does not know. */
  type: ExpectedColumnType | null;
  /** null for lists, whose columns Prisma leaves nullable. */
  nullable: boolean | null;
  default: ExpectedDefault;
}

export interface IndexShape {
  name: string;
  /** Column names in key order, `"col DESC"` for a descending key. */
  columns: string[];
  unique: boolean;
  /** Access method (`btree`, `hash`, `gin`, ...). */
  method: string;
}

export interface ExpectedForeignKey {
  field: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  /** Prisma referential action: Cascade, Restrict, NoAction, SetNull, SetDefault. */
  onDelete: string;
}

export interface ExpectedTable {
  name: string;
  model: string;
  columns: ExpectedColumn[];
  primaryKey: { name: string; columns: string[] } | null;
  indexes: IndexShape[];
  foreignKeys: ExpectedForeignKey[];
}

export interface ExpectedEnum {
  name: string;
  enumName: string;
  values: string[];
}

export interface ExpectedSchema {
  tables: ExpectedTable[];
  enums: ExpectedEnum[];
  /** Tables Prisma manages without a model (implicit many-to-many join tables). */
  ignoredTables: string[];
}

export interface LiveColumn {
  name: string;
  dataType: string;
  udtName: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  datetimePrecision: number | null;
  nullable: boolean;
  default: string | null;
  identity: boolean;
}

export interface LiveIndex extends IndexShape {
  table: string;
  primary: boolean;
  /** Has a WHERE predicate. */
  partial: boolean;
  /** Has an expression key (e.g. `lower(name)`). */
  expression: boolean;
}

export interface LiveForeignKey {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  /** `pg_constraint.confdeltype`: a, r, c, n, d. */
  onDelete: string;
}

export interface LiveSchema {
  tables: Map<string, LiveColumn[]>;
  indexes: LiveIndex[];
  foreignKeys: LiveForeignKey[];
  enums: Map<string, string[]>;
}
