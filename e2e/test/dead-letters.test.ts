import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConsumerTopology, DeadLetter } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { TestBroker } from '@school/messaging/testing';
import { INBOUND_EVENTS } from '../../services/notifier/src/inbound/inbound-topology.js';
import { mailsTo } from './support/mail.js';
import type { SystemView } from '@school/system-harness';
import { scaled } from '@school/testing';
import { sharedSystem } from './support/shared-system.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * On the shared system: no other suite parks a message (nothing should), so the notifier's
 * dead-letter queue holds only what this suite puts there; the broker's names stay the system's.
 */
describe('npm run dlq against the running notifier', () => {
  let system: SystemView;
  let broker: TestBroker;
  let notifier: ConsumerTopology;

  beforeAll(async () => {
    system = await sharedSystem();
    broker = await TestBroker.connect(system.brokerPrefix);
    notifier = broker.consumer(INBOUND_EVENTS.consumer, INBOUND_EVENTS.bindings);
  }, 90_000);

  afterAll(async () => {
    await broker?.close();
  });

  /** The built command, as `npm run dlq` runs it, with the system's AMQP_NAME_PREFIX. */
  function dlq(...argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['libs/messaging/dist/cli/dlq.js', ...argv],
        { cwd: root, env: { ...process.env, AMQP_NAME_PREFIX: system.brokerPrefix, DOTENV_PATH: '/dev/null' } },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function parked(count: number): Promise<void> {
    const deadline = Date.now() + scaled(15_000);
    while ((await broker.messageCount(notifier.deadLetterQueue)) !== count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} parked message(s)`);
      await sleep(100);
    }
  }

  it('lists what the notifier parked, replays a message into the notifier, which mails it, and purges the rest', async () => {
    // Refused by the notifier (the payload fails its schema): dead-lettered through the real consumer.
    await broker.publish(EVENT_TYPES.passwordChanged, '{"userId":"u-1"}', { messageId: 'poison-1', type: EVENT_TYPES.passwordChanged });
    await parked(1);
    // A valid event parked as well (as after an outage outlasting its retries).
    const email = `dlq.${randomUUID().slice(0, 8)}@example.com`;
    const eventId = randomUUID();
    const payload = { userId: 'u-2', email, name: 'Parked Person', changedAt: new Date().toISOString() };
    await broker.sendToQueue(notifier.deadLetterQueue, JSON.stringify(payload), { messageId: eventId, type: EVENT_TYPES.passwordChanged, contentType: 'application/json' });

    const listed = await dlq('list', '--json');
    expect(listed.status).toBe(0);
    // Every consumer's dead-letter queue is listed (reference-data's too, empty); the notifier's holds these.
    const { queues } = JSON.parse(listed.stdout) as { queues: Array<{ queue: string; messages: DeadLetter[] }> };
    const queue = queues.find((one) => one.queue === notifier.deadLetterQueue);
    expect(queue?.messages.map((m) => m.messageId)).toEqual(['poison-1', eventId]);
    expect(queue?.messages[0]).toMatchObject({ routingKey: EVENT_TYPES.passwordChanged, reason: 'rejected', from: notifier.queue });
    expect((await dlq('list')).stdout).toContain(`${notifier.deadLetterQueue}: 2 messages`);

    const replayed = await dlq('replay', '--queue', 'notifier', '--id', eventId);
    expect(replayed).toMatchObject({ status: 0, stdout: `${notifier.deadLetterQueue}: replayed 1 message\n  ${eventId} -> ${EVENT_TYPES.passwordChanged}\n` });
    const deadline = Date.now() + scaled(20_000);
    while ((await mailsTo(system.mailDir, email)).length === 0) {
      if (Date.now() > deadline) throw new Error(`no mail to ${email} after the replay`);
      await sleep(200);
    }
    expect(await broker.messageCount(notifier.deadLetterQueue)).toBe(1);

    const refused = await dlq('purge', '--queue', 'notifier');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('holds 1 message; purge deletes them for good: add --yes');
    expect(await dlq('purge', '--queue', 'notifier', '--yes')).toMatchObject({ status: 0, stdout: `${notifier.deadLetterQueue}: purged 1 message\n` });
    const { queues: emptied } = JSON.parse((await dlq('list', '--json')).stdout) as { queues: Array<{ queue: string; messages: DeadLetter[] }> };
    expect(emptied.find((one) => one.queue === notifier.deadLetterQueue)).toEqual({ queue: notifier.deadLetterQueue, messages: [] });
    expect(emptied.flatMap((one) => one.messages)).toEqual([]);
  });
});
