#!/usr/bin/env node
// The rest of the feedback ceiling (bench/src/feedback.ts): what happens to the write server's
// outbox rows (bench/src/ceilings/write-server.ts) on their way to the support mailbox, with nothing
// but `pg`, amqplib and nodemailer, in one process:
//
//   relay     woken by the outbox table's NOTIFY (as the product's relay is), reads the unsent rows
//             of CEILING_SCHEMA.outbox_events, publishes each persistent on a confirm channel to a
//             durable quorum queue of its own, and once the broker confirmed, marks them sent;
//   consumer  takes each message (manual ack, prefetch PREFETCH), renders the support mail with the
//             notifier's own template and sends it with a pooled nodemailer transport to SMTP_URL
//             (SMTP_CONNECTIONS connections, the notifier's EMAIL_CONCURRENCY), then acks.
//
// No inbox, no job queue, no tracing, no logs: the same durable hops (row, confirmed publish,
// acked delivery, SMTP acceptance) and nothing else. QUEUE names its queue (deleted on SIGTERM).
import { join } from 'node:path';
import amqplib from 'amqplib';
import nodemailer from 'nodemailer';
import pg from 'pg';

const schema = process.env['CEILING_SCHEMA'] ?? 'ceiling';
const queue = process.env['QUEUE'] ?? 'bench.ceiling.mail';
const prefetch = Number(process.env['PREFETCH'] ?? 20);
const supportEmail = process.env['SUPPORT_EMAIL'] ?? 'support@example.com';
const from = process.env['MAIL_FROM'] ?? 'no-reply@example.com';
const BATCH = 100;

const { feedbackSubmittedEmail } = await import(join(process.env['NOTIFIER_DIST'] ?? '', 'email/templates/feedback-submitted.js'));

const connection = await amqplib.connect(process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672');
const publisher = await connection.createConfirmChannel();
await publisher.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 2 });
const listener = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
await listener.connect();

let relaying = false;
let again = false;
/** Publishes every unsent row, a batch at a time, each batch marked sent once the broker confirmed it. */
async function relay(): Promise<void> {
  if (relaying) {
    again = true;
    return;
  }
  relaying = true;
  try {
    do {
      again = false;
      for (;;) {
        const { rows } = await pool.query(`SELECT id, payload::text AS payload FROM ${schema}.outbox_events WHERE sent_at IS NULL ORDER BY id LIMIT ${BATCH}`);
        if (rows.length === 0) break;
        for (const row of rows) publisher.sendToQueue(queue, Buffer.from(row.payload), { persistent: true, messageId: row.id, contentType: 'application/json' });
        await publisher.waitForConfirms();
        await pool.query(`UPDATE ${schema}.outbox_events SET sent_at = now() WHERE id = ANY($1::uuid[])`, [rows.map((row) => row.id)]);
      }
    } while (again);
  } finally {
    relaying = false;
  }
}
let stopping = false;
listener.on('notification', () => void relay().catch((error: Error) => stopping || console.error('relay:', error.message)));
await listener.query(`LISTEN "outbox:${schema}"`);
void relay().catch((error: Error) => console.error('relay:', error.message));

const transport = nodemailer.createTransport({ pool: true, url: process.env['SMTP_URL'], maxConnections: Number(process.env['SMTP_CONNECTIONS'] ?? 5) });
const consumer = await connection.createChannel();
await consumer.prefetch(prefetch);
await consumer.consume(queue, (message) => {
  if (!message) return;
  const payload = JSON.parse(message.content.toString());
  const { subject, html, text } = feedbackSubmittedEmail(payload);
  // After SIGTERM closed the channel, a mail still in flight is neither acked nor requeued: the run is over.
  const settle = (done: () => void) => {
    if (!stopping) done();
  };
  transport.sendMail({ from, to: supportEmail, subject, html, text, messageId: `<${message.properties.messageId}@example.com>` }).then(
    () => settle(() => consumer.ack(message)),
    (error: Error) =>
      settle(() => {
        console.error('send:', error.message);
        consumer.nack(message, false, true);
      }),
  );
});

process.once('SIGTERM', () => {
  stopping = true;
  void (async () => {
    await consumer.close();
    await publisher.deleteQueue(queue).catch(() => undefined);
    await connection.close();
    transport.close();
    await listener.end();
    await pool.end();
  })();
});
console.log('ready');
