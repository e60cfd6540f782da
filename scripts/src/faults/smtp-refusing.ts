import { setTimeout as sleep } from 'node:timers/promises';
import { burstWithFault } from './burst.js';
import type { Scenario } from './scenario.js';

/** The mail server answers 451 (try later) to every message for a while; the notifier retries. */
export const smtpRefusing: Scenario = {
  name: 'smtp-refusing',
  title: 'SMTP refusing (451) for a while: every accepted submission mailed after it, exactly once',
  async run(system, options, log) {
    log(`SMTP server refuses every message with 451 for ${options.smtpRefusalMs / 1000} s, starting before the burst`);
    system.sink.refuse();
    const refusedAt = Date.now();
    const outcome = await burstWithFault(system, options, {
      name: 'smtp',
      mailTimeoutMs: 2 * options.smtpRefusalMs + 60_000,
      async inject() {
        const left = options.smtpRefusalMs - (Date.now() - refusedAt);
        await sleep(Math.max(0, left));
        system.sink.accept();
        log(`SMTP server accepts again after ${((Date.now() - refusedAt) / 1000).toFixed(1)} s (${system.sink.refusedCount} attempts refused)`);
      },
    });
    outcome.counts['smtp.refused'] = system.sink.refusedCount;
    outcome.checks.push(['the server did refuse attempts', system.sink.refusedCount > 0]);
    return outcome;
  },
};
