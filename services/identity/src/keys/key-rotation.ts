import { UnitOfWork } from '@school/service';
import { keyRing, type KeyRingTimings } from './key-ring.js';
import { describePrivateKey, generateEd25519Pem } from './signing-key.js';
import { SigningKeyRepository } from './signing-key.repository.js';

export interface RotationResult {
  kid: string;
  /** When the new key starts signing (it is published at once). */
  signsFrom: Date;
  /** Keys verifying after the rotation, newest first (the new one included). */
  published: string[];
  /** Keys deleted because none of their tokens can be alive any more. */
  dropped: string[];
}

/**
 * `npm run keys:rotate`: stores a new Ed25519 key in the identity schema, which every replica picks
 * up at its next refresh, and deletes the keys that no longer verify. Under the keys' lock, so two
 * rotations or a replica's first start never interleave.
 */
export class KeyRotation {
  constructor(
    private readonly repository: SigningKeyRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  rotate(timings: KeyRingTimings): Promise<RotationResult> {
    return this.unitOfWork.run(async (tx) => {
      await this.repository.lockKeys(tx);
      const created = await this.repository.create(tx, await describePrivateKey(generateEd25519Pem()));
      const stored = await this.repository.findAll(tx);
      const ring = keyRing(stored, new Date(), timings)!;
      const published = new Set(ring.published.map((key) => key.kid));
      const dropped = stored.filter((key) => !published.has(key.kid)).map((key) => key.kid);
      await this.repository.deleteMany(tx, dropped);
      const first = stored.length === 1;
      return {
        kid: created.kid,
        signsFrom: first ? created.createdAt : new Date(created.createdAt.getTime() + timings.activationMs),
        published: ring.published.map((key) => key.kid),
        dropped,
      };
    });
  }
}
