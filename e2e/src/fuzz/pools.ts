/** Ids, keys and names seen in earlier answers, so later requests address rows that exist. */
export class Pools {
  private readonly uuids: string[] = [];
  private readonly keys: string[] = [];
  private readonly integers = new Map<string, number[]>();
  private readonly excluded: ReadonlySet<string>;

  /** `excluded`: publicIds never handed out (the fuzzer's own accounts: banning them would end the run's sessions). */
  constructor(excluded: Iterable<string> = []) {
    this.excluded = new Set(excluded);
  }

  /** Harvests a parsed answer. */
  observe(value: unknown, key = ''): void {
    if (typeof value === 'string') {
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) && !this.excluded.has(value)) add(this.uuids, value);
      if (key === 'relativePath') add(this.keys, value);
    } else if (typeof value === 'number' && Number.isInteger(value) && /id$/i.test(key)) {
      const list = this.integers.get(key) ?? [];
      add(list, value);
      this.integers.set(key, list);
    } else if (Array.isArray(value)) {
      for (const item of value.slice(0, 50)) this.observe(item, key);
    } else if (value && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) this.observe(item, name);
    }
  }

  /** A value seen for a parameter or field of this name, or undefined (then the generated one stays). */
  pick(name: string, random: number): string | number | undefined {
    if (random % 10 >= 7) return undefined;
    const list = /^(key|\*|wildcard)$/i.test(name) || /path/i.test(name) ? this.keys : /publicId$/i.test(name) ? this.uuids : (this.integers.get(name) ?? this.integers.get('id'));
    return list && list.length > 0 ? list[random % list.length] : undefined;
  }

  keySample(random: number, count: number): string[] {
    return this.keys.length === 0 ? [] : Array.from({ length: count }, (_, index) => this.keys[(random + index) % this.keys.length]!);
  }
}

const POOL_LIMIT = 200;

function add<T>(list: T[], value: T): void {
  if (list.includes(value)) return;
  list.push(value);
  if (list.length > POOL_LIMIT) list.shift();
}
