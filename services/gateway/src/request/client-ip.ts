import type { FastifyRequest } from 'fastify';

/**
 * The caller's address: the socket peer, or the first `X-Forwarded-For` entry when the gateway runs
 * behind a proxy that sets it (TRUST_PROXY). Without that flag the header is ignored, since any
 * client can write it (contract §4).
 */
export function clientIp(request: FastifyRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const first = firstListEntry(request.headers['x-forwarded-for']);
    if (first) return normalizeIp(first);
  }
  return peerIp(request);
}

export function peerIp(request: FastifyRequest): string {
  return normalizeIp(request.socket.remoteAddress ?? '');
}

export function firstListEntry(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first || undefined;
}

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same client. */
function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
