import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit, { type LimitFunction } from 'p-limit';

/**
 * argon2id with the OWASP parameters (m = 19456 KiB, t = 2, p = 1). Verification reads the
 * parameters from the stored hash, so raising them later keeps old hashes valid.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * How many hashes or verifications run at once: one per core, and always one thread of libuv's pool
 * (UV_THREADPOOL_SIZE, default 4, fixed at process start) left for the rest of its work (DNS
 * lookups, file access), which would otherwise wait behind argon2id during a burst of logins.
 */
export function hashingConcurrency(cores = availableParallelism(), threadPoolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4): number {
  return Math.max(1, Math.min(cores, threadPoolSize - 1));
}

/**
 * The rest wait their turn beyond `hashingConcurrency()`. argon2id is memory-hard: more of them in
 * flight than cores only share the CPU caches (each runs slower, so fewer complete per second) and
 * hold 19 MiB apiece, which a burst of logins would multiply.
 */
export class PasswordHasher {
  private readonly slots: LimitFunction;
  /** A hash of a random password, verified against when the account is unknown so timing is equal. */
  private readonly decoy: Promise<string>;

  constructor(concurrency: number = hashingConcurrency()) {
    this.slots = pLimit(concurrency);
    this.decoy = this.hash(`decoy-${Math.random()}`);
  }

  /** Hashes and verifications running now, and those waiting for a core. */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.activeCount, waiting: this.slots.pendingCount };
  }

  hash(password: string): Promise<string> {
    return this.slots(() => argon2.hash(password, ARGON2_OPTIONS));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await this.slots(() => argon2.verify(hash, password));
    } catch {
      return false;
    }
  }

  /** Spends the same work as a real verification, for an unknown email or an account without password. */
  async verifyDecoy(password: string): Promise<false> {
    await this.verify(await this.decoy, password);
    return false;
  }
}
