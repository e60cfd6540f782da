import type { Principal } from './principal.js';

const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  /** Epoch ms: the token's `exp`, or sooner when its key could leave the JWKS before that. */
  until: number;
}

/**
 * Tokens whose signature and claims have been verified, with their principal: the same token is not
 * verified again on every request. An entry lasts until the token's `exp`, but no longer than
 * `maxAgeMs` (the verifier's JWKS cache age), so a token whose signing key was retired stops being
 * accepted as soon as a fresh verification would refuse it. Bounded: past `maxEntries` the oldest
 * entry goes. Revocation is not cached here; it is checked on every request.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  get(token: string, now = Date.now()): Principal | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.principal;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, principal: Principal, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { principal, until: Math.min(principal.expiresAt.getTime(), now + this.maxAgeMs) });
  }
}
