/** A stored key as the rotation rules see it. */
export interface StoredKey {
  kid: string;
  createdAt: Date;
}

export interface KeyRingTimings {
  /** A newly stored key signs this long after it was stored (published first, so every verifier knows it). */
  activationMs: number;
  /** A key stays published this long after a newer one took over signing (its tokens' lifetime plus skew). */
  retirementMs: number;
}

export interface KeyRing<Key extends StoredKey> {
  /** The newest key whose activation time has come: it signs every new token. */
  signing: Key;
  /** Every key that verifies now, newest first: the signing key, keys waiting to sign, keys whose tokens may still live. */
  published: Key[];
}

/**
 * The rotation rules over the stored keys (oldest first by createdAt, then kid). The first key ever
 * stored signs at once (nothing was published before it). Each later key is published when stored and
 * signs from `createdAt + activationMs`; the key it replaces keeps verifying until `retirementMs` after
 * that. Null when no key is stored.
 */
export function keyRing<Key extends StoredKey>(stored: readonly Key[], now: Date, timings: KeyRingTimings): KeyRing<Key> | null {
  const keys = [...stored].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.kid.localeCompare(b.kid));
  if (keys.length === 0) return null;
  const signsFrom = (index: number) => (index === 0 ? -Infinity : keys[index]!.createdAt.getTime() + timings.activationMs);
  let signingIndex = 0;
  keys.forEach((_key, index) => {
    if (signsFrom(index) <= now.getTime()) signingIndex = index;
  });
  const published = keys.filter((_key, index) => {
    if (index >= signingIndex) return true;
    // Replaced when the next key started signing (each key's activation is after its predecessor's).
    return now.getTime() < signsFrom(index + 1) + timings.retirementMs;
  });
  return { signing: keys[signingIndex]!, published: published.reverse() };
}
