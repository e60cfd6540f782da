/** A route option's hooks (one, several or none) with more after them: onRoute hooks add to what earlier ones set. */
export function withHooks<T>(existing: T | T[] | undefined, ...added: T[]): T[] {
  if (existing === undefined) return added;
  return Array.isArray(existing) ? [...existing, ...added] : [existing, ...added];
}
