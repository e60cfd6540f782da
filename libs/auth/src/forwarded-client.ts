import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Redis } from 'ioredis';

/**
 * The gateway's proof that it wrote `X-Forwarded-For`: HMAC-SHA256 of the header's value under
 * FORWARDING_SECRET, which only the gateway and the services hold (docs/decisions/0007). A service
 * takes the forwarded client address only with a valid proof; any other caller, a pod that reaches
 * it directly included, is its socket address, whatever it writes.
 */
export const FORWARDED_FOR_SIGNATURE_HEADER = 'x-forwarded-for-signature';

/** Outside production, an unset FORWARDING_SECRET is generated once per installation and kept here (the gateway and the services share Redis). */
export const FORWARDING_SECRET_KEY = 'auth:forwarding-secret';

const RETRY_MS = 1_000;

export function signForwardedFor(secret: string, forwardedFor: string): string {
  return createHmac('sha256', secret).update(forwardedFor).digest('base64url');
}

/** The headers the gateway sends for a client at `forwardedFor` (what test kits send in its place). */
export function forwardedForHeaders(secret: string, forwardedFor: string): Record<string, string> {
  return { 'x-forwarded-for': forwardedFor, [FORWARDED_FOR_SIGNATURE_HEADER]: signForwardedFor(secret, forwardedFor) };
}

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
}

/**
 * The client address of a request to a service: the first `X-Forwarded-For` entry when the gateway
 * signed the header, else the socket address (a direct caller cannot choose it); null when neither is an ip.
 */
export function clientIpOf(request: RequestLike, secret: string | undefined): string | null {
  const forwarded = request.headers['x-forwarded-for'];
  const signature = request.headers[FORWARDED_FOR_SIGNATURE_HEADER];
  if (secret !== undefined && typeof forwarded === 'string' && typeof signature === 'string' && signatureMatches(signature, signForwardedFor(secret, forwarded))) {
    const first = forwarded.split(',')[0]?.trim();
    if (first && isIP(first)) return first;
  }
  return request.ip && isIP(request.ip) ? normalizeIp(request.ip) : null;
}

function signatureMatches(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same client. */
function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

/**
 * FORWARDING_SECRET, or (unset, never in production) the installation's own: the first process to
 * start generates it into Redis and the others read it. Until Redis answers there is none: the
 * gateway signs nothing and services take every caller's socket address.
 */
export class ForwardingSecret {
  private value: string | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    configured: string | undefined,
    private readonly key = FORWARDING_SECRET_KEY,
  ) {
    this.value = configured;
  }

  current(): string | undefined {
    return this.value;
  }

  /** One attempt at reading (or making) the kept secret; while Redis is away, another every second. */
  async start(): Promise<void> {
    if (this.value !== undefined || this.stopped) return;
    try {
      await this.redis.set(this.key, randomBytes(32).toString('base64url'), 'NX');
      this.value = (await this.redis.get(this.key)) ?? undefined;
    } catch {
      // Redis away: the retry below.
    }
    if (this.value === undefined && !this.stopped) this.retry = setTimeout(() => void this.start(), RETRY_MS).unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }
}
