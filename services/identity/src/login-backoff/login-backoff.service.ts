import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, normalizeEmail, rateLimited } from '@school/http';
import { APP_CONFIG, type Transaction, UnitOfWork } from '@school/service';
import { type CheckTurn, ChecksInFlight } from './checks-in-flight.js';
import type { LoginBackoffConfig } from './login-backoff.config.js';
import { countFailure, decideAttempt, FREE_FAILURES } from './login-backoff-rules.js';
import { LoginBackoffRepository } from './login-backoff.repository.js';

/** Runs in the transaction that counts a failure: `backoffStarted` when this failure starts a back-off. */
export type OnFailure = (tx: Transaction, backoffStarted: boolean) => Promise<void>;

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
   * a turn (see ChecksInFlight), then a wrong answer is counted and a right one clears the count,
   * unless `ends` says it does not end the login (a password step awaiting its second step, contract
   * §12: the wrong codes that may follow count on). A check that throws (503 from a full hash queue)
   * counts as nothing. `onFailure` runs in the transaction that counts a failure.
   */
  async attempt<T>(email: string, check: () => Promise<T | undefined>, onFailure?: OnFailure, ends: (found: T) => boolean = () => true): Promise<T | undefined> {
    const key = emailKeyOf(email);
    const turn = this.inFlight.join(key);
    try {
      const counted = await this.waitForTurn(key, turn);
      const found = await check();
      if (found === undefined) await this.countFailure(key, onFailure);
      // No count was stored when the turn was given: a success then has nothing to clear, and a
      // failure another login counted meanwhile is one that came after it.
      else if (ends(found) && counted) await this.repository.clear(key);
      return found;
    } finally {
      turn.leave();
    }
  }

  /** A successful password reset (in its transaction): the count is cleared and a back-off in progress ends. */
  async succeeded(email: string, tx?: Transaction): Promise<void> {
    await this.repository.clear(emailKeyOf(email), tx);
  }

  /** Resolves once the check may start: true when the email had a count stored then. */
  private async waitForTurn(key: string, turn: CheckTurn): Promise<boolean> {
    const deadline = Date.now() + CHECK_TURN_WAIT_MS;
    for (;;) {
      const endedBefore = turn.endedSoFar();
      const current = await this.repository.read(key);
      const decision = decideAttempt(current, new Date());
      if (!decision.admitted) throw rateLimited(decision.retryAfterMs);
      if (turn.tryStart(decision.checksAllowed, endedBefore)) return current.failures > 0 || current.blockedUntil !== null;
      if (!(await turn.waitForEnd(endedBefore, deadline))) throw loginsBusy();
    }
  }

  private async countFailure(key: string, onFailure: OnFailure | undefined): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const now = new Date();
      const counted = countFailure(await this.repository.lock(tx, key), now, this.baseMs);
      await this.repository.save(tx, key, counted, now);
      // Only an admitted login is counted: from the fifth failure on, each one starts a back-off.
      await onFailure?.(tx, counted.failures >= FREE_FAILURES);
    });
  }
}

function loginsBusy(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'Too many logins of this email are in progress; please retry shortly', { headers: { 'retry-after': '1' } });
}

/** The email as login looks it up, hashed: the table holds no address. */
function emailKeyOf(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}
