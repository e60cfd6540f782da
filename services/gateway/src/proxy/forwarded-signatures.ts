import { signForwardedFor } from '@school/auth';

const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * The `X-Forwarded-For` signature (an HMAC-SHA256) of each recent value, kept per secret: a client's
 * requests, many on one kept-alive connection, are signed once rather than once each (the profile
 * showed the HMAC as a tenth of the gateway's own work per proxied request). A new secret forgets
 * every signature of the old one; past `maxEntries` the oldest value goes.
 */
export class ForwardedForSignatures {
  private secret: string | undefined;
  private readonly signatures = new Map<string, string>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  sign(secret: string, forwardedFor: string): string {
    if (secret !== this.secret) {
      this.signatures.clear();
      this.secret = secret;
    }
    let signature = this.signatures.get(forwardedFor);
    if (signature === undefined) {
      if (this.signatures.size >= this.maxEntries) this.signatures.delete(this.signatures.keys().next().value!);
      signature = signForwardedFor(secret, forwardedFor);
      this.signatures.set(forwardedFor, signature);
    }
    return signature;
  }
}
