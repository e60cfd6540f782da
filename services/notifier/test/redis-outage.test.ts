import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { TcpProxy, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { migratedTestSchema, type MigratedTestSchema } from '@school/testing';
import { deleteRedisKeys, TEST_REDIS_URL } from './support/redis-cleanup.js';
import { startNotifier, type NotifierInstance } from './support/notifier-instance.js';
import { delay, waitFor } from './support/wait.js';

const serviceDir = join(import.meta.dirname, '..');

interface LogLine {
  level: string;
  msg?: string;
  context?: string;
  connection?: string;
  errorsWhileDown?: number;
}

describe('notifier during a Redis outage (Redis behind a TCP proxy)', () => {
  let db: MigratedTestSchema;
  let broker: TestBroker;
  let proxy: TcpProxy;
  let notifier: NotifierInstance;
  const prefix = uniqueBrokerPrefix('redis-outage');
  const logLines: LogLine[] = [];
  const rawOutput: string[] = [];
  const restore: Array<() => void> = [];

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'notifier_redis');
    broker = await TestBroker.connect(prefix);
    proxy = await TcpProxy.start(TEST_REDIS_URL);
    // Whatever reaches stderr or the console outside the service's logger (BullMQ prints raw stacks there).
    const stderrWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      rawOutput.push(String(chunk));
      return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
    restore.push(() => (process.stderr.write = stderrWrite));
    for (const method of ['error', 'warn', 'log', 'info'] as const) {
      const spy = jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        rawOutput.push(args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' '));
      });
      restore.push(() => spy.mockRestore());
    }
    notifier = await startNotifier(
      db.schema,
      {
        AMQP_URL: TEST_AMQP_URL,
        AMQP_NAME_PREFIX: prefix,
        REDIS_URL: proxy.urlFor(TEST_REDIS_URL),
        REDIS_KEY_PREFIX: prefix,
        MAIL_OUTBOX_DIR: join(db.schema, 'mail'),
        SMTP_URL: 'smtp://127.0.0.1:9',
      },
      { level: 'info', destination: { write: (line) => void logLines.push(JSON.parse(line) as LogLine) } },
    );
    await waitFor(async () => (await fetch(`${notifier.url}/health/ready`)).status === 200, { what: 'notifier ready' });
  });

  afterAll(async () => {
    for (const undo of restore.splice(0).reverse()) undo();
    await notifier?.close();
    await proxy?.close();
    await deleteRedisKeys(prefix);
    await broker?.destroy();
    await db?.drop();
  });

  it('logs one structured line per state change of each connection, and nothing raw on stderr', async () => {
    logLines.length = 0;
    rawOutput.length = 0;
    await proxy.cut();
    await waitFor(async () => (await fetch(`${notifier.url}/health/ready`)).status === 503, { what: 'readiness to report Redis down' });
    await delay(4_000); // several reconnect attempts of every queue, worker and connection
    await proxy.resume();
    await waitFor(async () => (await fetch(`${notifier.url}/health/ready`)).status === 200, { what: 'readiness after Redis is back', timeoutMs: 20_000 });
    await delay(1_000);

    expect(rawOutput.filter((text) => /\n\s+at /.test(text) || /Error:/.test(text))).toEqual([]);
    const redisLines = logLines.filter((line) => line.context === 'Redis');
    const lost = redisLines.filter((line) => line.msg === 'Redis unreachable; reconnecting');
    const back = redisLines.filter((line) => line.msg === 'Redis reachable again');
    expect(lost.map((line) => line.connection).sort()).toEqual(['notifier', 'notifier-live']);
    expect(back.map((line) => line.connection).sort()).toEqual(['notifier', 'notifier-live']);
    expect(lost.every((line) => line.level === 'warn')).toBe(true);
    // Nothing else the outage produced is logged at warn or error level.
    const noisy = logLines.filter((line) => (line.level === 'error' || line.level === 'warn') && line.context !== 'Redis');
    expect(noisy).toEqual([]);
  }, 60_000);
});
