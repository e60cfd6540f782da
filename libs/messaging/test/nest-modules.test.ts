import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { MessagingModule, OutboxModule } from '@school/messaging/nest';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { DatabaseSchema, HealthModule, ReadinessRegistry } from '@school/service';
import { OutboxDb, TEST_DATABASE_URL } from './support/outbox-db.js';
import { waitFor } from './support/wait.js';

describe('MessagingModule + OutboxModule in a producing Nest service', () => {
  let db: OutboxDb;
  let broker: TestBroker;

  beforeEach(async () => {
    db = await OutboxDb.create();
    broker = await TestBroker.connect(uniqueBrokerPrefix('nest'));
  });

  afterEach(async () => {
    await broker.destroy();
    await db.drop();
  });

  it('provides Outbox, runs the relay, reports amqp and outbox-relay readiness, and stops cleanly', async () => {
    const tap = await broker.tap();
    // What DatabaseModule provides a service: its schema.
    @Global()
    @Module({ providers: [{ provide: DatabaseSchema, useValue: new DatabaseSchema(db.schema) }], exports: [DatabaseSchema] })
    class SchemaModule {}
    @Module({
      imports: [
        HealthModule,
        MessagingModule.forRoot({ url: TEST_AMQP_URL, connectionName: 'nest-test', namePrefix: broker.prefix }),
        OutboxModule.forRoot({ databaseUrl: TEST_DATABASE_URL, relay: { pollIntervalMs: 60_000 } }),
        SchemaModule,
      ],
    })
    class ProducerModule {}

    const app = await NestFactory.createApplicationContext(ProducerModule, { logger: false });
    try {
      const readiness = app.get(ReadinessRegistry);
      await waitFor(async () => (await readiness.report()).status === 'ok', { what: 'readiness' });
      expect((await readiness.report()).checks).toEqual({ amqp: 'up', 'outbox-relay': 'up' });

      const outbox = app.get(Outbox);
      const id = await db.transaction((tx) =>
        outbox.record(tx, EVENT_TYPES.passwordChanged, { userId: 'u1', email: 'u1@example.com', name: null, changedAt: new Date().toISOString() }),
      );
      const [message] = await waitFor(
        async () => {
          const messages = await broker.drain(tap);
          return messages.length ? messages : null;
        },
        { what: 'the published event' },
      );
      expect(message?.properties.messageId).toBe(id);
    } finally {
      await app.close();
    }
    expect((await db.rows())[0]?.sent_at).not.toBeNull();
  });
});
