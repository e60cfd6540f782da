import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AmqpConnection, DEFAULT_RECONNECT, silentLogger, type MessagingLogger } from '@school/messaging';
import { TcpProxy, TEST_AMQP_URL } from '@school/messaging/testing';
import { scaled } from '@school/testing';
import { delay, waitFor } from './support/wait.js';

/** Records when each connect attempt failed (logged at warn or debug). */
function attemptRecorder(): { logger: MessagingLogger; failures: number[] } {
  const failures: number[] = [];
  const record = (_fields: object, message?: string) => {
    if (message?.startsWith('AMQP connect failed')) failures.push(Date.now());
  };
  return { logger: { ...silentLogger, warn: record, debug: record }, failures };
}

describe('AMQP connection (real RabbitMQ behind a TCP proxy)', () => {
  it('with the default settings, retries at most ~2 s apart however long the outage, and reconnects within ~2 s of the broker coming back', async () => {
    const proxy = await TcpProxy.start(TEST_AMQP_URL);
    const { logger, failures } = attemptRecorder();
    const connection = new AmqpConnection({ url: proxy.urlFor(TEST_AMQP_URL), name: 'reconnect-test', logger });
    // On a loaded machine every timer fires late, the backoff's included: the bounds allow what was measured.
    const lateness = monitorEventLoopDelay({ resolution: 10 });
    lateness.enable();
    try {
      await connection.waitForConnect();
      await proxy.cut();
      await waitFor(() => !connection.isConnected(), { what: 'the drop' });
      // Long enough for an uncapped doubling backoff (0.5, 1, 2, 4, 8 s...) to exceed the cap.
      await delay(9_000);
      await proxy.resume();
      const resumed = Date.now();
      await waitFor(() => connection.isConnected(), { what: 'the reconnect', timeoutMs: 20_000 });
      const recoveryMs = Date.now() - resumed;

      const lateMs = lateness.max / 1e6;

      const gaps = failures.slice(1).map((at, index) => at - (failures[index] as number));
      expect(failures.length).toBeGreaterThanOrEqual(5);
      expect(Math.max(...gaps)).toBeLessThan(DEFAULT_RECONNECT.maxMs + scaled(500) + lateMs);
      expect(recoveryMs).toBeLessThan(DEFAULT_RECONNECT.maxMs + scaled(1_000) + lateMs);
    } finally {
      lateness.disable();
      await connection.close();
      await proxy.close();
    }
  }, 40_000);
});
