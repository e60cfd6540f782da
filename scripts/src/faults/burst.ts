// The shape of the delivery scenarios: a guest-feedback burst, a fault injected once a third of it
// is sent, then every accepted submission must be mailed exactly once.
import { randomBytes } from 'node:crypto';
import { awaitMails, feedbackBurst, Tally, until } from '../proof/client.js';
import type { ProofSystem } from '../proof/system.js';
import type { FaultOptions, Outcome } from './scenario.js';
import { onlyUnavailable, trafficCounts } from './traffic.js';

/** A subject tag prefix of this scenario run (letters and digits: the mail subject ends with it). */
export function tagPrefix(name: string): string {
  return `${name.replace(/[^a-z]/g, '')}${randomBytes(3).toString('hex')}`;
}

/**
 * Runs the burst, calls `inject()` once a third is sent (it returns when the fault is over), waits
 * up to `mailTimeoutMs` for the mails and returns the counts and the checks of the invariant.
 */
export interface BurstFault {
  name: string;
  inject: () => Promise<void>;
  mailTimeoutMs: number;
  pauseMs?: number;
  /** A resend under the same Message-ID is allowed (a crash between sending and marking sent). */
  resendsAllowed?: boolean;
}

export async function burstWithFault(
  system: ProofSystem,
  options: FaultOptions,
  { name, inject, mailTimeoutMs, pauseMs = 20, resendsAllowed = false }: BurstFault,
): Promise<Outcome> {
  const tally = new Tally();
  const accepted: string[] = [];
  const burst = feedbackBurst(system.gatewayUrl, { prefix: tagPrefix(name), count: options.burst, concurrency: options.concurrency, pauseMs, tally, accepted });
  await until(() => tally.sent >= options.burst / 3, 60_000, 20);
  await inject();
  await burst;
  const mails = await awaitMails(system.sink, accepted, mailTimeoutMs);
  const once: [string, boolean] = resendsAllowed
    ? [
        `none mailed twice as two notifications (${mails.reissued} under a new Message-ID; ${mails.duplicated} resent under the same one, which mail clients collapse)`,
        mails.reissued === 0,
      ]
    : [`none mailed twice (${mails.duplicated} duplicates)`, mails.duplicated === 0];
  return {
    counts: trafficCounts(tally, mails, 'accepted'),
    checks: [
      onlyUnavailable(tally),
      ['some submissions accepted', tally.ok > 0],
      [`every accepted submission mailed within ${mailTimeoutMs / 1000} s (${mails.missing} missing)`, mails.missing === 0],
      once,
    ],
  };
}
