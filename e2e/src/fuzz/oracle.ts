import type { Operation } from './openapi.js';
import type { WireResponse } from './send.js';

/** What a client may see; each pattern is a leak of internals if it appears in any answer. */
const LEAKS: [string, RegExp][] = [
  ['stack trace', /\n\s+at [^\n]+[(\s][^\s()]+:\d+:\d+\)?/],
  ['stack trace', /\b(node:internal|node_modules\/|\/dist\/[\w/-]+\.js)/],
  ['SQL', /\b(SELECT\s[\s\S]{1,200}\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b/i],
  ['SQL error', /syntax error at or near|relation "[^"]+" does not exist|violates [\w ]*constraint|duplicate key value|invalid input syntax for/i],
  ['Prisma message', /\bprisma\b|PrismaClient|\bP[0-9]{4}\b.*(constraint|record|query)/i],
  ['driver error', /\bECONNREFUSED\b|\bECONNRESET\b|\bETIMEDOUT\b|\bEAI_AGAIN\b/],
];

export interface Finding {
  problem: string;
  excerpt: string;
}

/**
 * Judges one answer: no 5xx, no hang, errors and envelope routes answer the contract's envelope,
 * and nothing in headers or body shows a stack, SQL, Prisma or an internal address.
 */
export function judge(operation: Operation, response: WireResponse, internalHosts: readonly string[]): Finding[] {
  if (response.failure) return [{ problem: response.failure, excerpt: '' }];
  const findings: Finding[] = [];
  const text = isText(response) ? response.body.toString('utf8') : '';
  if (response.status >= 500) findings.push({ problem: `status ${response.status}`, excerpt: text.slice(0, 300) });

  const expectsEnvelope = response.status >= 400 || (operation.successIsEnvelope && response.status < 300);
  if (expectsEnvelope) {
    const problem = envelopeProblem(response, text);
    if (problem) findings.push({ problem, excerpt: text.slice(0, 300) });
  }

  const exposed = `${JSON.stringify(response.headers)}\n${text}`;
  // Files, pages and documents answer what was stored or written; the envelope is where internals could slip out.
  for (const [what, pattern] of expectsEnvelope ? LEAKS : []) {
    const match = pattern.exec(exposed);
    if (match) findings.push({ problem: `${what} in the answer`, excerpt: around(exposed, match.index) });
  }
  for (const host of internalHosts) {
    const at = exposed.indexOf(host);
    if (at >= 0) findings.push({ problem: `internal address ${host} in the answer`, excerpt: around(exposed, at) });
  }
  return findings;
}

function envelopeProblem(response: WireResponse, text: string): string | undefined {
  const contentType = String(response.headers['content-type'] ?? '');
  if (!contentType.includes('application/json')) return `not JSON (content-type ${contentType || 'none'})`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not valid JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body is not an object';
  const envelope = body as Record<string, unknown>;
  if (typeof envelope.message !== 'string') return 'envelope without a string message';
  if (!('data' in envelope)) return 'envelope without data';
  if (response.status >= 400) {
    if (typeof envelope.errorCode !== 'string' || envelope.errorCode === '') return 'error without an errorCode';
    if (envelope.data !== null) return 'error with non-null data';
    if (envelope.errorCode === 'VALIDATION_FAILED' && !Array.isArray(envelope.errors)) return 'VALIDATION_FAILED without errors[]';
    if (response.status === 429 && !response.headers['retry-after']) return '429 without Retry-After';
  } else if (envelope.errorCode !== null) {
    return 'success with a non-null errorCode';
  }
  return undefined;
}

function isText(response: WireResponse): boolean {
  const type = String(response.headers['content-type'] ?? '');
  return type === 'undefined' || type === '' || /json|text|html|xml|javascript/.test(type);
}

function around(text: string, index: number): string {
  return text.slice(Math.max(0, index - 80), index + 160);
}
