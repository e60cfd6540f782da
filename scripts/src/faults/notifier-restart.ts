import { setTimeout as sleep } from 'node:timers/promises';
import { burstWithFault } from './burst.js';
import type { Scenario } from './scenario.js';

/**
 * The notifier is stopped mid-burst and started again, twice: with SIGTERM (a deploy: it finishes
 * what it holds, so exactly once) and with SIGKILL (a crash: a mail the SMTP server took just before
 * the kill, whose job was not yet marked done, is sent again under the same Message-ID; nothing
 * may be lost or sent as a second notification).
 */
function restartMidBurst(signal: 'SIGTERM' | 'SIGKILL'): Scenario['run'] {
  return (system, options, log) =>
    burstWithFault(system, options, {
      name: `notifier${signal === 'SIGKILL' ? 'kill' : 'term'}`,
      // A job that was active when the notifier died runs again once its lock expires (EMAIL_JOB_LOCK_MS: 60 s, 20 s quick).
      mailTimeoutMs: 120_000,
      resendsAllowed: signal === 'SIGKILL',
      async inject() {
        log(`${signal} to the notifier (pid ${system.pids().notifier}) with ${system.sink.messages.length} mails delivered so far`);
        await system.stop('notifier', signal);
        await sleep(1_000);
        await system.restart('notifier');
        log(`notifier started again (pid ${system.pids().notifier}) and ready`);
      },
    });
}

export const notifierRestart: Scenario = {
  name: 'notifier-restart',
  title: 'notifier stopped (SIGTERM) and restarted mid-burst: every accepted submission mailed exactly once',
  run: restartMidBurst('SIGTERM'),
};

export const notifierKill: Scenario = {
  name: 'notifier-kill',
  title: 'notifier killed (SIGKILL) and restarted mid-burst: every accepted submission mailed, none as a second notification',
  run: restartMidBurst('SIGKILL'),
};
