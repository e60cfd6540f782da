// Events backbone benchmark, in one run (issue 3):
//   raw  - the same event messages published straight to RabbitMQ (persistent, publisher
//          confirms) into the notifier's quorum queue: the ceiling set by the broker;
//   e2e  - events recorded in producer transactions (outbox) -> relay -> RabbitMQ -> notifier
//          (inbox transaction, BullMQ) -> email accepted by an in-process SMTP sink.
// Prints both rates, their ratio and the delivery lag (commit -> SMTP accept) percentiles: of the
// burst (backlog included), then of a short open-loop run at half the measured throughput.
//
// Needs Postgres, Redis and RabbitMQ (DATABASE_URL, REDIS_URL, AMQP_URL or the local defaults).
// BENCH_EVENTS (default 1000) events, BENCH_WRITERS (default 16) concurrent writers, and a hard
// limit of BENCH_TIMEOUT_S (default 120) seconds. Builds the notifier first (Nx cache).
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 120);
const DATABASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const AMQP_URL = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';

console.log('[bench] building the notifier and its libraries (nx)...');
const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '-p', '@school/notifier', '@school/messaging', '--outputStyle=static'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const { default: pg } = await import('pg');
const { default: amqplib } = await import('amqplib');
const { Redis } = await import('ioredis');
const { startSmtpSink } = await import('./ceilings/smtp-sink.js');
const messaging = await import('@school/messaging');
const { EVENT_TYPES } = await import('@school/contracts');
const { applyMigrations } = await import('@school/prisma');
const { parseConfig } = await import('@school/config');
const { createServiceApp } = await import('@school/service');
const { createLogger } = await import('@school/telemetry');
const { reportResult } = await import('./support.js');
const { AppModule } = await import(join(root, 'services/notifier/dist/app.module.js'));
const { notifierEnv } = await import(join(root, 'services/notifier/dist/config.js'));
const { INBOUND_EVENTS } = await import(join(root, 'services/notifier/dist/inbound/inbound-topology.js'));
const { startEventTransport } = await import('@school/messaging/nest');

const run = randomBytes(4).toString('hex');
const prefix = `bench-${run}.`;
const names = messaging.consumerTopology(INBOUND_EVENTS.consumer, INBOUND_EVENTS.bindings, { prefix });
const producerSchema = `bench_producer_${run}`;
const notifierSchema = `bench_notifier_${run}`;
const cleanups: (() => Promise<unknown>)[] = [];
const deadline = setTimeout(() => {
  console.error(`[bench] gave up after ${TIMEOUT_S} s`);
  void cleanup().finally(() => process.exit(2));
}, TIMEOUT_S * 1000);

function feedback(n: number) {
  return {
    id: randomUUID(),
    category: 'general_feedback' as const,
    subject: `Bench ${n}`,
    message: `Benchmark message number ${n}. `.repeat(8),
    createdAt: new Date().toISOString(),
    from: { type: 'guest' as const, name: 'Bench Guest', email: 'bench@example.org', phone: null },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) await step().catch((error: Error) => console.error('[bench] cleanup:', error.message));
}

try {
  // --- infrastructure: schemas, broker topology, SMTP sink -------------------------------------
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: WRITERS + 2 });
  cleanups.push(() => pool.end());
  await pool.query(`CREATE SCHEMA "${producerSchema}"`);
  cleanups.push(() => pool.query(`DROP SCHEMA IF EXISTS "${producerSchema}" CASCADE`));
  await pool.query(`SET search_path TO "${producerSchema}"; ${messaging.outboxMigrationScripts().join('\n')}`);
  await pool.query('RESET search_path');
  cleanups.push(() => pool.query(`DROP SCHEMA IF EXISTS "${notifierSchema}" CASCADE`));
  await applyMigrations({ databaseUrl: DATABASE_URL, schema: notifierSchema, migrationsDir: join(root, 'services/notifier/prisma/migrations') });

  const broker = await amqplib.connect(AMQP_URL);
  const channel = await broker.createConfirmChannel();
  cleanups.push(async () => {
    const admin = await broker.createChannel();
    for (const queue of [names.queue, names.deadLetterQueue, ...names.retryQueues.map((retry) => retry.name)]) await admin.deleteQueue(queue);
    for (const exchange of [names.exchange, names.deadLetterExchange]) await admin.deleteExchange(exchange);
    await broker.close();
  });
  await messaging.declareConsumerTopology(channel, names, { quorum: true, quorumRetry: true });

  const accepted = new Map<string, number>(); // event id -> time the sink accepted its email
  const sink = await startSmtpSink((head) => {
    const id = /^Message-ID: <([^>]+)_email@/im.exec(head)?.[1];
    if (id && !accepted.has(id)) accepted.set(id, performance.now());
  });
  cleanups.push(() => sink.close());

  // --- raw: publish with confirms straight to the broker ---------------------------------------
  const bodies = Array.from({ length: EVENTS }, (_, n) => Buffer.from(JSON.stringify(feedback(n))));
  const rawStart = performance.now();
  for (const [n, body] of bodies.entries()) {
    const ok = channel.publish(names.exchange, EVENT_TYPES.feedbackSubmitted, body, {
      persistent: true,
      contentType: 'application/json',
      messageId: `raw-${n}`,
    });
    if (!ok) await new Promise((resolve) => channel.once('drain', resolve));
  }
  await channel.waitForConfirms();
  const rawSeconds = (performance.now() - rawStart) / 1000;
  await channel.purgeQueue(names.queue);

  // --- e2e: outbox -> relay -> broker -> notifier -> BullMQ -> SMTP ---------------------------
  const config = parseConfig(notifierEnv, {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    MIGRATE_ON_START: 'false',
    DATABASE_URL,
    REDIS_URL,
    AMQP_URL,
    AMQP_NAME_PREFIX: prefix,
    AMQP_PREFETCH: '50',
    REDIS_KEY_PREFIX: prefix,
    SMTP_URL: sink.url,
    EMAIL_CONCURRENCY: '20',
  });
  const logger = createLogger({ service: 'notifier', level: process.env.BENCH_LOG_LEVEL ?? 'error' });
  const notifier = await createServiceApp(AppModule.forRoot(config, { databaseSchema: notifierSchema }), { logger });
  await startEventTransport(notifier);
  await notifier.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(async () => {
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.quit();
  });
  cleanups.push(() => notifier.close());

  const connection = new messaging.AmqpConnection({ url: AMQP_URL, name: 'bench-relay', logger: messaging.silentLogger });
  const publisher = new messaging.EventPublisher(connection, { names });
  const relay = new messaging.OutboxRelay({ databaseUrl: DATABASE_URL, schema: producerSchema, publisher, broker: connection, logger: messaging.silentLogger });
  relay.start();
  cleanups.push(async () => {
    await relay.stop();
    await publisher.close();
    await connection.close();
  });
  await connection.waitForConnect();
  const outbox = new messaging.Outbox(producerSchema);

  const committed = new Map<string, number>(); // event id -> time its transaction committed
  /** Records `count` events from WRITERS connections; with `ratePerSecond`, event i starts at i / rate. */
  async function record(count: number, offset: number, ratePerSecond?: number): Promise<void> {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        const client = await pool.connect();
        const tx = { $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await client.query(query, values)).rowCount ?? 0 };
        try {
          while (next < count) {
            const n = next++;
            if (ratePerSecond) {
              const due = start + (n * 1000) / ratePerSecond;
              if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
            }
            await client.query('BEGIN');
            const id = await outbox.record(tx, EVENT_TYPES.feedbackSubmitted, feedback(offset + n));
            await client.query('COMMIT');
            committed.set(id, performance.now());
          }
        } finally {
          client.release();
        }
      }),
    );
  }
  async function allAccepted() {
    while ([...committed.keys()].some((id) => !accepted.has(id))) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const lagsOf = (ids: string[]) => ids.map((id) => accepted.get(id)! - committed.get(id)!).sort((a, b) => a - b);

  const e2eStart = performance.now();
  const cpuStart = process.cpuUsage();
  await record(EVENTS, 0);
  const recordSeconds = (performance.now() - e2eStart) / 1000;
  await allAccepted();
  const e2eSeconds = (Math.max(...accepted.values()) - e2eStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuShare = (cpu.user + cpu.system) / 1e6 / ((performance.now() - e2eStart) / 1000);

  // Where the time goes: when the last row was published, and when the last event was handled.
  const {
    rows: [relayed],
  } = await pool.query(`SELECT extract(epoch FROM max(sent_at) - min(created_at)) AS s FROM "${producerSchema}".outbox_events`);
  const {
    rows: [handled],
  } = await pool.query(
    `SELECT extract(epoch FROM max(p.processed_at) - (SELECT min(created_at) FROM "${producerSchema}".outbox_events)) AS s FROM "${notifierSchema}".processed_messages p`,
  );

  const burstLags = lagsOf([...committed.keys()]);
  const rawRate = EVENTS / rawSeconds;
  const e2eRate = EVENTS / e2eSeconds;

  // Lag under a load the pipeline sustains (half the measured throughput, open loop): a burst
  // measures queueing behind the backlog, this measures the path itself (lesson 10).
  const pacedRate = Math.max(1, Math.floor(e2eRate / 2));
  const pacedCount = Math.min(EVENTS, pacedRate * 5);
  const before = new Set(committed.keys());
  await record(pacedCount, EVENTS, pacedRate);
  await allAccepted();
  const pacedLags = lagsOf([...committed.keys()].filter((id) => !before.has(id)));
  console.log(`\n[bench] ${EVENTS} events, ${WRITERS} concurrent writers, one process (producer, notifier and SMTP sink share the CPU)`);
  console.log(`raw publish with confirms : ${rawRate.toFixed(0)} msg/s (${rawSeconds.toFixed(2)} s)`);
  console.log(`recording (outbox writes) : ${(EVENTS / recordSeconds).toFixed(0)} tx/s (${recordSeconds.toFixed(2)} s)`);
  console.log(`  last row published by the relay after ${Number(relayed.s).toFixed(2)} s, last event handled by the notifier after ${Number(handled.s).toFixed(2)} s`);
  console.log(`end to end (email accepted): ${e2eRate.toFixed(0)} events/s (${e2eSeconds.toFixed(2)} s)`);
  console.log(`ratio end-to-end / raw     : ${(e2eRate / rawRate).toFixed(3)}`);
  console.log(`bench process CPU during e2e: ${(cpuShare * 100).toFixed(0)}% of one core`);
  console.log(
    `delivery lag, burst above  : p50 ${percentile(burstLags, 50).toFixed(0)} ms, p99 ${percentile(burstLags, 99).toFixed(0)} ms, max ${(burstLags.at(-1) ?? 0).toFixed(0)} ms (commit -> SMTP accept, includes the backlog)`,
  );
  console.log(
    `delivery lag at ${pacedRate}/s     : p50 ${percentile(pacedLags, 50).toFixed(0)} ms, p99 ${percentile(pacedLags, 99).toFixed(0)} ms, max ${(pacedLags.at(-1) ?? 0).toFixed(0)} ms (${pacedCount} events at a fixed rate)`,
  );
  reportResult({ figure: 'events end to end (outbox -> SMTP) vs raw publish with confirms', product: e2eRate, ceiling: rawRate, unit: 'events/s' });
  reportResult({ figure: `event delivery lag p99 at ${pacedRate}/s (commit -> SMTP accept)`, product: percentile(pacedLags, 99), unit: 'ms' });
} finally {
  clearTimeout(deadline);
  await cleanup();
}
process.exit(0);
