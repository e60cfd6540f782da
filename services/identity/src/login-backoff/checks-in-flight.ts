interface EmailChecks {
  /** Logins of the email in this process: checking, or deciding whether they may. */
  members: number;
  running: number;
  /** Bumped whenever a check ends: an admission decided on a count read before then is read again. */
  ended: number;
  waiters: Set<() => void>;
}

/** One login's place among its email's logins in progress; `leave` when it is answered, whatever the answer. */
export interface CheckTurn {
  /** Checks of the email ended so far: take it before reading the email's count. */
  endedSoFar(): number;
  /** Starts the check if fewer than `allowed` are running and none ended since `endedBefore` (the count read then may be stale). */
  tryStart(allowed: number, endedBefore: number): boolean;
  /** True once a check of the email ends (at once if one ended since `endedBefore`), false at `deadline` (ms since the epoch). */
  waitForEnd(endedBefore: number, deadline: number): Promise<boolean>;
  leave(): void;
}

/**
 * The password checks of each email in progress in this process (contract §9): at most as many as
 * the email has failures left before its back-off, so a burst of guesses is checked a few at a time
 * and the rest meet the back-off the first ones start, while a burst of right passwords is checked a
 * few at a time too, each success letting the next ones in. Kept in memory: a check that never ends
 * (a crash) cannot leave a count behind.
 */
export class ChecksInFlight {
  private readonly emails = new Map<string, EmailChecks>();

  join(key: string): CheckTurn {
    const checks = this.emails.get(key) ?? { members: 0, running: 0, ended: 0, waiters: new Set<() => void>() };
    this.emails.set(key, checks);
    checks.members += 1;
    let started = false;
    let left = false;
    return {
      endedSoFar: () => checks.ended,
      tryStart: (allowed, endedBefore) => {
        if (started || checks.running >= allowed || checks.ended !== endedBefore) return started;
        checks.running += 1;
        started = true;
        return true;
      },
      waitForEnd: (endedBefore, deadline) => waitForEnd(checks, endedBefore, deadline),
      leave: () => {
        if (left) return;
        left = true;
        checks.members -= 1;
        if (started) {
          checks.running -= 1;
          checks.ended += 1;
          for (const wake of checks.waiters) wake();
          checks.waiters.clear();
        }
        if (checks.members === 0) this.emails.delete(key);
      },
    };
  }

  /** Emails with logins in progress (for tests: the map empties when they are answered). */
  get size(): number {
    return this.emails.size;
  }
}

function waitForEnd(checks: EmailChecks, endedBefore: number, deadline: number): Promise<boolean> {
  if (checks.ended !== endedBefore) return Promise.resolve(true);
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(
      () => {
        checks.waiters.delete(wake);
        resolve(false);
      },
      Math.max(0, deadline - Date.now()),
    );
    checks.waiters.add(wake);
  });
}
