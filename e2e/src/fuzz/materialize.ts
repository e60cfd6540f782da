import { randomBytes } from 'node:crypto';
import type { JsonSchema, Operation, SchemaResolver } from './openapi.js';
import type { Mutation, Plan, UploadPart } from './plans.js';
import type { Pools } from './pools.js';
import { typesOf } from './values.js';

/** A request exactly as it goes on the wire. */
export interface WireRequest {
  method: string;
  /** Path and query, already encoded. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A 1x1 PNG: the smallest real image, so uploads reach the image pipeline. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const UPLOAD_BYTES: Record<Exclude<UploadPart['content'], 'random'>, Buffer> = {
  png: TINY_PNG,
  csv: Buffer.from('name,grade\nAsha,5\n'),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  html: Buffer.from('<!doctype html><script>alert(1)</script>'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  empty: Buffer.alloc(0),
};

/**
 * Turns a plan into bytes: fills path parameters and id fields from what earlier answers showed,
 * applies the plan's mutation, and encodes path, query and body the way a client would.
 */
export function materialize(plan: Plan, resolver: SchemaResolver, pools: Pools, authorization: string | undefined): WireRequest {
  const { operation, mutation } = plan;
  const picks = plan.poolPicks;
  const pathValues: Record<string, unknown> = { ...plan.pathValues };
  operation.pathParams.forEach((parameter, index) => {
    pathValues[parameter.name] = pools.pick(parameter.name, picks[index % picks.length]!) ?? pathValues[parameter.name] ?? 'x';
  });
  const query: Record<string, unknown> = { ...plan.query };
  for (const [name, value] of Object.entries(query)) query[name] = pools.pick(name, picks[5]!) ?? value;
  let body = fillFromPools(structuredClone(plan.body), pools, picks[6]!);
  const headers: Record<string, string> = { ...(authorization && { authorization }) };
  let rawBody: Buffer | undefined;
  let contentType = operation.body?.contentType;

  if (operation.body?.contentType.startsWith('multipart/')) {
    const field = Object.keys(resolver.resolve(operation.body.schema).properties ?? { file: {} })[0] ?? 'file';
    const boundary = `fuzz${randomBytes(8).toString('hex')}`;
    rawBody = multipart(boundary, field, plan.upload);
    contentType = `multipart/form-data; boundary=${boundary}`;
  }

  switch (mutation.kind) {
    case 'none':
      break;
    case 'boundary':
      applyBoundary(mutation, operation, resolver, query, (next) => (body = next), body);
      break;
    case 'field-value':
    case 'field-missing': {
      const paths = leafPaths(body);
      if (paths.length === 0) break;
      const path = paths[mutation.pick % paths.length]!;
      body = mutation.kind === 'field-value' ? setAt(body, path, mutation.value) : deleteAt(body, path);
      break;
    }
    case 'field-extra':
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        // JSON.parse makes `__proto__` an own key, so the wire carries it as an attacker would send it.
        body = JSON.parse(
          JSON.stringify(body)
            .replace(/^\{/, `{${JSON.stringify(mutation.key)}:${JSON.stringify(mutation.value ?? null)},`)
            .replace(/,\}$/, '}'),
        );
      }
      break;
    case 'body-value':
      body = mutation.value;
      rawBody = undefined;
      contentType = 'application/json';
      break;
    case 'body-raw':
      rawBody = Buffer.from(mutation.text);
      break;
    case 'content-type':
      contentType = mutation.contentType;
      break;
    case 'query-value':
      query[pickedName(operation.queryParams, mutation.pick)] = mutation.value;
      break;
    case 'query-extra':
      query[mutation.key] = mutation.value;
      break;
    case 'path-value':
      pathValues[pickedName(operation.pathParams, mutation.pick)] = mutation.value;
      break;
    case 'header':
      headers[mutation.name] = mutation.value;
      break;
  }

  if (rawBody === undefined && body !== undefined && operation.body) rawBody = Buffer.from(JSON.stringify(body));
  if (rawBody !== undefined && contentType) headers['content-type'] = contentType;
  return { method: operation.method, target: target(operation, pathValues, query), headers, ...(rawBody !== undefined && { body: rawBody }) };
}

/** The name of the parameter a mutation's `pick` lands on. */
function pickedName(parameters: readonly { name: string }[], pick: number): string {
  return parameters[pick % parameters.length]!.name;
}

function target(operation: Operation, pathValues: Record<string, unknown>, query: Record<string, unknown>): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const raw = pathValues[name] ?? '';
    const value = typeof raw === 'string' ? raw : JSON.stringify(raw);
    // Storage keys hold slashes the route's wildcard takes whole; every other parameter is one segment.
    return /^(key|\*|wildcard)$/i.test(name) ? value.split('/').map(percentEncode).join('/') : percentEncode(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const encoded = search.toString();
  return encoded ? `${path}?${encoded}` : path;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** encodeURIComponent, except that a lone surrogate goes out as the invalid UTF-8 a careless client would send. */
function percentEncode(value: string): string {
  return value.split(LONE_SURROGATE).map(encodeURIComponent).join('%ED%A0%80');
}

/** Integer id fields and key lists get values seen in earlier answers, most of the time. */
function fillFromPools(value: unknown, pools: Pools, random: number): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => fillFromPools(item, pools, random));
  const record = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(record)) {
    if (key === 'keys' && Array.isArray(item)) {
      const seen = pools.keySample(random, item.length);
      record[key] = seen.length > 0 && random % 10 < 7 ? seen : item;
    } else if (typeof item === 'number' && /Id$/.test(key)) {
      record[key] = pools.pick(key, random) ?? item;
    } else {
      record[key] = fillFromPools(item, pools, random);
    }
  }
  return record;
}

interface Bounded {
  schema: JsonSchema;
  apply(value: unknown): void;
}

/** Sets one bounded field (a body property or a query parameter) to just inside or just outside its bound. */
function applyBoundary(
  mutation: Extract<Mutation, { kind: 'boundary' }>,
  operation: Operation,
  resolver: SchemaResolver,
  query: Record<string, unknown>,
  setBody: (body: unknown) => void,
  body: unknown,
): void {
  const candidates: Bounded[] = operation.queryParams.map((parameter) => ({ schema: resolver.resolve(parameter.schema), apply: (value) => (query[parameter.name] = value) }));
  if (body && typeof body === 'object' && !Array.isArray(body) && operation.body) {
    const properties = resolver.resolve(operation.body.schema).properties ?? {};
    for (const [name, schema] of Object.entries(properties)) {
      candidates.push({ schema: resolver.resolve(schema), apply: (value) => setBody({ ...body, [name]: value }) });
    }
  }
  const bounded = candidates.filter(({ schema }) => boundsOf(schema) !== undefined);
  if (bounded.length === 0) return;
  const chosen = bounded[mutation.pick % bounded.length]!;
  const bounds = boundsOf(chosen.schema)!;
  const edge = { below: bounds.min - 1, min: bounds.min, max: bounds.max, above: bounds.max + 1 }[mutation.side];
  chosen.apply(bounds.kind === 'string' ? 'a'.repeat(Math.max(0, edge)) : bounds.kind === 'array' ? Array.from({ length: Math.max(0, edge) }, () => 'x') : edge);
}

function boundsOf(schema: JsonSchema): { kind: 'string' | 'number' | 'array'; min: number; max: number } | undefined {
  const types = typesOf(schema);
  if (types.includes('string') && (schema.minLength !== undefined || schema.maxLength !== undefined)) {
    return { kind: 'string', min: schema.minLength ?? 0, max: schema.maxLength ?? 10_000 };
  }
  if ((types.includes('integer') || types.includes('number')) && (schema.minimum !== undefined || schema.maximum !== undefined)) {
    return { kind: 'number', min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 };
  }
  if (types.includes('array') && (schema.minItems !== undefined || schema.maxItems !== undefined)) {
    return { kind: 'array', min: schema.minItems ?? 0, max: schema.maxItems ?? 1_000 };
  }
  return undefined;
}

type Path = (string | number)[];

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return prefix.length > 0 ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  const nested = entries.flatMap(([key, item]) => leafPaths(item, [...prefix, key]));
  return prefix.length > 0 ? [prefix, ...nested] : nested;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root) as Record<string | number, unknown>;
  parent[path.at(-1)!] = value;
  return root;
}

function deleteAt(root: unknown, path: Path): unknown {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
  if (Array.isArray(parent)) parent.splice(Number(path.at(-1)), 1);
  else delete (parent as Record<string, unknown>)[String(path.at(-1))];
  return root;
}

function multipart(boundary: string, field: string, parts: UploadPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename.replace(/["\r\n]/g, '_');
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(part.content === 'random' ? Buffer.from(part.random) : UPLOAD_BYTES[part.content]);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
