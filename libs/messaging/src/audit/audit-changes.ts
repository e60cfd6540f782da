/** One changed field of an audit entry (contract §13). */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

export type AuditChanges = Record<string, FieldChange>;

/**
 * What an entry says of a secret that changed (a password, token, secret or code): only that it
 * changed, never a value nor a hash of one (contract §13).
 */
export const SECRET_CHANGED = '[changed]';

/**
 * Field names that hold a secret (a password or its hash, a token, a secret, a one-time or recovery
 * code): whatever their value, an entry shows SECRET_CHANGED on both sides. Not `code` alone: a
 * geography row has a public `code`.
 */
const SECRET_FIELD = /password|token|secret|otp|hash|recovery/i;

/** A row as the API shows it: the fields an entry compares are read from it by name. */
export type Snapshot = object;

/**
 * The fields of `fields` whose value differs between `before` and `after` as `{ from, to }`
 * (dates as ISO strings, objects compared by value). `before` undefined is a create (`from` null),
 * `after` undefined a hard delete (`to` null); a field null on both sides is left out. Name only the fields the request may change: a
 * timestamp the change moved (updatedAt, phoneVerifiedAt...) is not one.
 */
export function auditChanges(before: Snapshot | undefined, after: Snapshot | undefined, fields: readonly string[]): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    const from = before === undefined ? null : normalized((before as Record<string, unknown>)[field]);
    const to = after === undefined ? null : normalized((after as Record<string, unknown>)[field]);
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes[field] = SECRET_FIELD.test(field) ? secretChanged() : { from, to };
  }
  return changes;
}

/** The entry of a secret that changed, e.g. `{ password: secretChanged() }`. */
export function secretChanged(): FieldChange {
  return { from: SECRET_CHANGED, to: SECRET_CHANGED };
}

function normalized(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object') return JSON.parse(JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)));
  return value;
}
