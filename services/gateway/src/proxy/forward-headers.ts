import type { IncomingHttpHeaders } from 'node:http';
import { propagation } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { FORWARDED_FOR_SIGNATURE_HEADER } from '@school/auth';
import { REQUEST_ID_HEADER } from '@school/http';
import { firstListEntry } from '../request/client-ip.js';
import { ForwardedForSignatures } from './forwarded-signatures.js';
import { injectTraceContext } from '../tracing/request-span.js';

/**
 * Meaningful for one connection only (RFC 9110 §7.6.1). `expect` too: Node already answered the
 * `100-continue`, and the upstream client refuses the header.
 */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/**
 * Headers that would claim who the caller is or where it came from. Services learn the caller only
 * from the bearer token they verify themselves, and the client address only from what the gateway
 * writes and signs; a client never gets to set these.
 */
const CALLER_CLAIM =
  /^(x-(user|auth|principal|session|role|permission|account|internal|client-ip|real-ip|original-forwarded-for|forwarded-(user|email|groups|preferred-username|access-token|host|port|prefix|server|for-signature))(-.*)?|remote-user|x-remote-user|forwarded|true-client-ip|cf-connecting-ip)$/;

export interface ForwardingOptions {
  /** TRUST_PROXY: how many proxies in front of the gateway set the `X-Forwarded-*` headers. */
  trustedProxies: number;
  /** FORWARDING_SECRET (or the installation's generated one): the key of the `X-Forwarded-For` signature; none yet, no signature. */
  forwardingSecret: { current(): string | undefined };
}

const signatures = new ForwardedForSignatures();

/** The request headers an upstream service sees. Authorization passes through untouched. */
export function upstreamRequestHeaders(request: FastifyRequest, incoming: IncomingHttpHeaders, options: ForwardingOptions): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  const connectionScoped = listedInConnection(request.headers.connection);
  for (const name in incoming) {
    if (HOP_BY_HOP.has(name) || connectionScoped?.has(name) || CALLER_CLAIM.test(name)) continue;
    headers[name] = incoming[name];
  }
  // With OpenTelemetry running, the client's trace headers are replaced by those of the gateway's
  // span (a child of the client's trace). Without it, they pass through unchanged.
  for (const field of propagation.fields()) delete headers[field];
  injectTraceContext(request, headers);

  // Services take the first entry as the client (identity records it on sessions), once they have
  // checked the signature: what reaches them without it, they treat as coming from its socket.
  const forwardedFor = request.client.forwardedFor;
  headers['x-forwarded-for'] = forwardedFor;
  const secret = options.forwardingSecret.current();
  if (secret !== undefined) headers[FORWARDED_FOR_SIGNATURE_HEADER] = signatures.sign(secret, forwardedFor);
  const trustProxy = options.trustedProxies > 0;
  headers['x-forwarded-proto'] = (trustProxy && firstListEntry(request.headers['x-forwarded-proto'])) || request.protocol;
  const host = (trustProxy && firstListEntry(request.headers['x-forwarded-host'])) || request.headers.host;
  if (host) headers['x-forwarded-host'] = host;
  headers[REQUEST_ID_HEADER] = request.id;
  // The client may have sent it chunked; the spooled body's length is known.
  if (request.spooledBody) headers['content-length'] = String(request.spooledBody.size);
  return headers;
}

/** The upstream's response headers, minus those that belonged to its connection with the gateway. */
export function clientResponseHeaders(upstream: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  const connectionScoped = listedInConnection(upstream.connection);
  for (const name in upstream) {
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !connectionScoped?.has(lower)) headers[name] = upstream[name];
  }
  return headers;
}

/** What nearly every request and response says: nothing beyond HOP_BY_HOP to strip. */
const USUAL_CONNECTION = /^\s*(keep-alive|close)\s*$/i;

/** The header names a `Connection` header lists beyond HOP_BY_HOP; undefined when none (the usual `keep-alive`). */
function listedInConnection(connection: unknown): Set<string> | undefined {
  if (typeof connection !== 'string' || USUAL_CONNECTION.test(connection)) return undefined;
  const names = connection
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && !HOP_BY_HOP.has(name));
  return names.length > 0 ? new Set(names) : undefined;
}
