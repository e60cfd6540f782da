/**
 * Characters strings may not carry (contract §3). Every string input refuses NUL (Postgres text
 * cannot hold it). Single-line fields also refuse every other control character (C0, DEL, C1),
 * the Unicode line and paragraph separators, and the bidirectional embeddings, overrides and
 * isolates (U+202A-U+202E, U+2066-U+2069) that reorder how text around them is displayed
 * ("Trojan Source"). Multi-line text allows tab, line feed, carriage return and the two Unicode
 * separators, nothing else of those.
 *
 * The implicit direction marks LRM, RLM and ALM (U+200E, U+200F, U+061C) are allowed: they open
 * no embedding level, so they cannot reorder text beyond their own neighbourhood, and writing
 * Arabic or Hebrew names mixed with Latin or digits needs them.
 */
const BIDI_FORMATTING = '\\u202A-\\u202E\\u2066-\\u2069';
const NOT_SINGLE_LINE = `\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029${BIDI_FORMATTING}`;

/** Matches a whole string free of control characters, separators and bidi formatting. */
export const SINGLE_LINE_TEXT = new RegExp(`^[^${NOT_SINGLE_LINE}]*$`);

/** As SINGLE_LINE_TEXT, but tab, line feed, carriage return and U+2028/U+2029 are allowed. */
export const MULTI_LINE_TEXT = new RegExp(`^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${BIDI_FORMATTING}]*$`);

export const NUL = '\u0000';

const UNPRINTABLE = new RegExp(`[${NOT_SINGLE_LINE}]`, 'g');

/** `text` with every character a single-line field refuses shown as U+FFFD, safe to echo. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, '\uFFFD');
}

interface Visit {
  value: unknown;
  key: string | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * Paths (`deviceInfo.deviceName`, `keys.3`) of the strings under `input` that contain NUL, object
 * keys included, stopping after `limit`. Iterative and linear: no recursion depth to exhaust on a
 * deeply nested body, and paths are built only for the hits.
 */
export function pathsHoldingNul(input: unknown, limit: number): string[] {
  const hits: string[] = [];
  const pending: Visit[] = [{ value: input, key: undefined, parent: undefined }];
  while (pending.length > 0 && hits.length < limit) {
    const visit = pending.pop() as Visit;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes(NUL)) hits.push(pathOf(visit));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push({ value: value[index], key: String(index), parent: visit });
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        if (key.includes(NUL)) hits.push(pathOf({ value: undefined, key, parent: visit }));
        pending.push({ value: (value as Record<string, unknown>)[key], key, parent: visit });
      }
    }
  }
  return hits.slice(0, limit);
}
