/**
 * Small data-layer rules every repository needs, recognised by shape so no generated client is
 * imported here.
 */

interface CodedError {
  code?: unknown;
  /** pg's error names the violated constraint. */
  constraint?: unknown;
  meta?: {
    target?: unknown;
    driverAdapterError?: { cause?: { kind?: unknown; constraint?: { index?: unknown; fields?: unknown } } };
  };
}

const codeOf = (error: unknown): unknown => (typeof error === 'object' && error !== null ? (error as CodedError).code : undefined);

/**
 * A unique index refused the write (Prisma P2002 or SQLSTATE 23505): a duplicate that lost a race
 * against the pre-check. With `index`, only a violation naming that index (or its fields) counts.
 */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  const code = codeOf(error);
  if (code !== 'P2002' && code !== '23505') return false;
  if (index === undefined) return true;
  const shape = error as CodedError;
  const named = [shape.constraint, shape.meta?.driverAdapterError?.cause?.constraint?.index, shape.meta?.target].flat();
  return named.includes(index);
}

/** A foreign key refused the write (Prisma P2003 or SQLSTATE 23503): a parent missing, or a row still named. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'P2003' || code === '23503';
}

/**
 * The transaction lost to a concurrent one and may be retried: serialization failure (40001),
 * deadlock (40P01), or Prisma's transaction write conflict (P2034).
 */
export function isSerializationFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code === '40001' || code === '40P01' || code === 'P2034') return true;
  const kind = (error as CodedError | null)?.meta?.driverAdapterError?.cause?.kind;
  return kind === 'TransactionWriteConflict';
}

/** For Prisma's `contains` (ILIKE '%' || $1 || '%', unescaped): make `\`, `%` and `_` literal. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Repeats a bounded DELETE until it deletes less than a full batch (short statements, short locks). */
export async function deleteInBatches(batch: number, deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let deleted = batch; deleted === batch; total += deleted) deleted = await deleteBatch();
  return total;
}
