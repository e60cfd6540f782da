import { Inject, Injectable } from '@nestjs/common';
import { AppError, emailDigest, rateLimited } from '@school/http';
import { APP_CONFIG, type Transaction, UnitOfWork } from '@school/service';
import { type CheckTurn, ChecksInFlight } from './checks-in-flight.js';
import type { LoginBackoffConfig } from './login-backoff.config.js';
import { countFailure, decideAttempt } from './login-backoff-rules.js';
import { LoginBackoffRepository } from './login-backoff.repository.js';

/** The longest a login waits for its email's checks in progress before it is told to come back (503). */
export const CHECK_TURN_WAIT_MS = 3_000;

/**
 * Contract §9: failed logins counted per email (known or not, both surfaces together, every
 * replica through the database). A failure is a login whose password was checked and was wrong;
 * a refused attempt (429, or 503 when no check could be made) counts as nothing and costs no argon2id.
 */
@Injectable()
export class LoginBackoffService {
  private readonly baseMs: number;
  readonly inFlight = new ChecksInFlight();

  constructor(
    private readonly repository: LoginBackoffRepository,
    private readonly unitOfWork: UnitOfWork,
    @Inject(APP_CONFIG) config: LoginBackoffConfig,
  ) {
    this.baseMs = config.LOGIN_BACKOFF_BASE_SECONDS * 1_000;
  }

  /**
   * Runs `check` (the password check: what it found when right, undefined when wrong) under the
   * email's back-off: 429 RATE_LIMITED with Retry-After while it runs; otherwise once the email has
   * a turn (see ChecksInFlight), then a wrong answer is counted and a right one clears the count.
   * A check that throws (503 from a full hash queue) counts as nothing.
   */
  async attempt<T>(email: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
    const key = emailDigest(email);
    const turn = this.inFlight.join(key);
    try {
      await this.waitForTurn(key, turn);
      const found = await check();
      if (found === undefined) await this.countFailure(key);
      else await this.repository.clear(key);
      return found;
    } finally {
      turn.leave();
    }
  }

  /** A successful password reset (in its transaction): the count is cleared and a back-off in progress ends. */
  async succeeded(email: string, tx?: Transaction): Promise<void> {
    await this.repository.clear(emailDigest(email), tx);
  }

  private async waitForTurn(key: string, turn: CheckTurn): Promise<void> {
    const deadline = Date.now() + CHECK_TURN_WAIT_MS;
    for (;;) {
      const endedBefore = turn.endedSoFar();
      const decision = decideAttempt(await this.repository.read(key), new Date());
      if (!decision.admitted) throw rateLimited(decision.retryAfterMs);
      if (turn.tryStart(decision.checksAllowed, endedBefore)) return;
      if (!(await turn.waitForEnd(endedBefore, deadline))) throw loginsBusy();
    }
  }

  private async countFailure(key: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const now = new Date();
      await this.repository.save(tx, key, countFailure(await this.repository.lock(tx, key), now, this.baseMs), now);
    });
  }
}

function loginsBusy(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'Too many logins of this email are in progress; please retry shortly', { headers: { 'retry-after': '1' } });
}
