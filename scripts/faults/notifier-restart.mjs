import { setTimeout as sleep } from 'node:timers/promises';
import { burstWithFault } from './burst.mjs';

/** The notifier is killed (SIGKILL: no clean shutdown) mid-burst and started again. */
export const notifierRestart = {
  name: 'notifier-restart',
  title: 'notifier killed and restarted mid-burst: every accepted submission mailed exactly once',
  run: (system, options, log) =>
    burstWithFault(system, options, {
      name: 'notifier',
      // A job that was active when the notifier died is taken up again once its lock expires (60 s).
      mailTimeoutMs: 120_000,
      async inject() {
        log(`kill -9 the notifier (pid ${system.pids().notifier}) with ${system.sink.messages.length} mails delivered so far`);
        await system.stop('notifier', 'SIGKILL');
        await sleep(1_000);
        await system.restart('notifier');
        log(`notifier started again (pid ${system.pids().notifier}) and ready`);
      },
    }),
};
