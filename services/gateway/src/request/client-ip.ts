import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's address, read once as the request arrives (registerClientAddress). */
    client: ClientAddress;
  }
}

export interface ClientAddress {
  /** Who the throttles count and the services record (contract §4). */
  ip: string;
  /** The `X-Forwarded-For` services receive: the client ip first, then each trusted hop up to the gateway's peer. */
  forwardedFor: string;
}

/**
 * The caller's address, the single answer for throttle keys and for what services are told.
 *
 * With no trusted proxy it is the socket peer and `X-Forwarded-For` is ignored: any client can
 * write it. Behind `trustedProxies` proxies, each of them appended the address it saw, so the N-th
 * entry from the right is the one the outermost proxy saw; entries further left were written by
 * the client. A request with fewer entries than N did not come through every proxy: its peer is
 * the only address not chosen by the client, so that is the client ip (contract §4).
 */
export function clientAddress(request: FastifyRequest, trustedProxies: number): ClientAddress {
  const peer = normalizeIp(request.socket.remoteAddress ?? '');
  if (trustedProxies > 0) {
    const entries = listEntries(request.headers['x-forwarded-for']);
    const index = entries.length - trustedProxies;
    const client = index >= 0 ? normalizeIp(entries[index] ?? '') : '';
    if (isIP(client)) return { ip: client, forwardedFor: [client, ...entries.slice(index + 1), peer].join(', ') };
  }
  return { ip: peer, forwardedFor: peer };
}

/** Reads every request's client address once, on arrival, for the throttles and the forwarded headers that follow. */
export function registerClientAddress(app: FastifyInstance, trustedProxies: number): void {
  app.decorateRequest('client', null as unknown as ClientAddress);
  app.addHook('onRequest', (request, _reply, done) => {
    request.client = clientAddress(request, trustedProxies);
    done();
  });
}

export function firstListEntry(header: string | string[] | undefined): string | undefined {
  return listEntries(header)[0] || undefined;
}

/** Every entry of a comma-separated header, repeated headers included, in order. */
function listEntries(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').map((entry) => entry.trim());
}

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same client. */
function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
