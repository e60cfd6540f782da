import type { Principal } from './principal.js';

const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Tokens whose signature and claims have been verified, with their principal, until their `exp`:
 * the same token is not verified again on every request. Bounded: past `maxEntries` the oldest entry
 * goes. Revocation is not cached here; it is checked on every request.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Principal>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  get(token: string, now = Date.now()): Principal | undefined {
    const principal = this.entries.get(token);
    if (principal === undefined) return undefined;
    if (principal.expiresAt.getTime() > now) return principal;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, principal: Principal): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, principal);
  }
}
