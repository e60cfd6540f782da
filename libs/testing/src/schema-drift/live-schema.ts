import type pg from 'pg';
import type { LiveColumn, LiveForeignKey, LiveIndex, LiveSchema } from './model.js';

const MIGRATIONS_TABLE = '_prisma_migrations';

/** Tables, columns, indexes, foreign keys and enums of one Postgres schema, from the catalogs. */
export async function liveSchema(client: pg.Client, schema: string): Promise<LiveSchema> {
  const tables = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname <> $2`,
    [schema, MIGRATIONS_TABLE],
  );
  const columns = await client.query<LiveColumn & { table: string }>(
    `SELECT table_name AS "table", column_name AS name, data_type AS "dataType", udt_name AS "udtName",
            character_maximum_length AS length, numeric_precision AS precision, numeric_scale AS scale,
            datetime_precision AS "datetimePrecision", is_nullable = 'YES' AS nullable,
            column_default AS "default", is_identity = 'YES' AS identity
       FROM information_schema.columns
      WHERE table_schema = $1
      ORDER BY table_name, ordinal_position`,
    [schema],
  );
  const indexes = await client.query<LiveIndex>(
    `SELECT i.relname AS name, t.relname AS "table", ix.indisunique AS "unique", ix.indisprimary AS "primary",
            ix.indpred IS NOT NULL AS partial, ix.indexprs IS NOT NULL AS expression, am.amname AS method,
            ARRAY(SELECT a.attname::text || CASE WHEN ix.indoption[k.ord - 1] & 1 = 1 THEN ' DESC' ELSE '' END
                    FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
                   WHERE k.ord <= ix.indnkeyatts
                   ORDER BY k.ord) AS columns
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_am am ON am.oid = i.relam
      WHERE n.nspname = $1 AND t.relname <> $2`,
    [schema, MIGRATIONS_TABLE],
  );
  const foreignKeys = await client.query<LiveForeignKey>(
    `SELECT con.conname AS name, src.relname AS "table", tgt.relname AS "refTable", con.confdeltype::text AS "onDelete",
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
            ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS "refColumns"
       FROM pg_constraint con
       JOIN pg_class src ON src.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = src.relnamespace
       JOIN pg_class tgt ON tgt.oid = con.confrelid
      WHERE con.contype = 'f' AND n.nspname = $1`,
    [schema],
  );
  const enums = await client.query<{ name: string; values: string[] }>(
    `SELECT t.typname AS name,
            ARRAY(SELECT e.enumlabel::text FROM pg_enum e WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder) AS values
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype = 'e'`,
    [schema],
  );

  const byTable = new Map<string, LiveColumn[]>(tables.rows.map((t) => [t.name, []]));
  for (const { table, ...column } of columns.rows) byTable.get(table)?.push(column);
  return {
    tables: byTable,
    indexes: indexes.rows,
    foreignKeys: foreignKeys.rows,
    enums: new Map(enums.rows.map((e) => [e.name, e.values])),
  };
}
