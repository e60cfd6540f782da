import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { normalizeEmail, rateLimited } from '@school/http';
import { APP_CONFIG, type Transaction, UnitOfWork } from '@school/service';
import type { LoginBackoffConfig } from './login-backoff.config.js';
import { decideAttempt } from './login-backoff-rules.js';
import { LoginBackoffRepository } from './login-backoff.repository.js';

/**
 * Contract §9: failed logins counted per email (known or not, both surfaces together, every
 * replica through the database). A refused attempt costs one row lock, no argon2id.
 */
@Injectable()
export class LoginBackoffService {
  private readonly baseMs: number;

  constructor(
    private readonly repository: LoginBackoffRepository,
    private readonly unitOfWork: UnitOfWork,
    @Inject(APP_CONFIG) config: LoginBackoffConfig,
  ) {
    this.baseMs = config.LOGIN_BACKOFF_BASE_SECONDS * 1_000;
  }

  /** 429 RATE_LIMITED with Retry-After while the email's back-off runs; otherwise the attempt counts as a failure until `succeeded`. */
  async admit(email: string): Promise<void> {
    const key = emailKeyOf(email);
    const decision = await this.unitOfWork.run(async (tx) => {
      const now = new Date();
      const decided = decideAttempt(await this.repository.lock(tx, key), now, this.baseMs);
      if (decided.admitted) await this.repository.save(tx, key, decided.counted, now);
      return decided;
    });
    if (!decision.admitted) throw rateLimited(decision.retryAfterMs);
  }

  /** A successful login or password reset (in its transaction): the count is cleared and a back-off in progress ends. */
  async succeeded(email: string, tx?: Transaction): Promise<void> {
    await this.repository.clear(emailKeyOf(email), tx);
  }
}

/** The email as login looks it up, hashed: the table holds no address. */
function emailKeyOf(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}
