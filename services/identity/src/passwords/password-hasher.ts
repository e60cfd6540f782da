import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/**
 * argon2id with the OWASP parameters (m = 19456 KiB, t = 2, p = 1). Verification reads the
 * parameters from the stored hash, so raising them later keeps old hashes valid.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordHasher {
  /** A hash of a random password, verified against when the account is unknown so timing is equal. */
  private readonly decoy = argon2.hash(`decoy-${Math.random()}`, ARGON2_OPTIONS);

  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
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
