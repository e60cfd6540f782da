import { setTimeout as sleep } from 'node:timers/promises';
import { burstWithFault } from './burst.js';
import { proxyOf, type Scenario } from './scenario.js';

/** Every RabbitMQ connection (relays, consumer, RPC) is closed twice while feedback flows. */
export const rabbitmqCut: Scenario = {
  name: 'rabbitmq-cut',
  title: 'RabbitMQ connections closed during a feedback burst: every accepted submission mailed exactly once',
  run: (system, options, log) =>
    burstWithFault(system, options, {
      name: 'rabbitmq',
      mailTimeoutMs: 60_000,
      async inject() {
        for (const round of [1, 2]) {
          log(`cut RabbitMQ (${proxyOf(system, 'rabbitmq').connectionCount / 2} connections closed, new ones refused) for ${options.outageMs / 2000} s, round ${round}`);
          await proxyOf(system, 'rabbitmq').cut();
          await sleep(options.outageMs / 2);
          await proxyOf(system, 'rabbitmq').resume();
          log('RabbitMQ restored');
          await sleep(500);
        }
      },
    }),
};
