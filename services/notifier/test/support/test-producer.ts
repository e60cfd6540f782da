import { AmqpConnection, brokerNames, EventPublisher, Outbox, outboxMigrationScripts, OutboxRelay, silentLogger } from '@school/messaging';
import type { EventPayload, EventType } from '@school/contracts';
import { createPrismaClient } from '@school/prisma';
import { createTestSchema, quoteIdent, withConnection, type TestSchema } from '@school/testing';
import { PrismaClient } from '../../src/generated/prisma/client.js';

/**
 * A stand-in producing service: its own schema with the outbox table of the services' migrations,
 * a Prisma client, `Outbox.record` in Prisma transactions and the relay, as identity and
 * feedback run them.
 */
export class TestProducer {
  private constructor(
    readonly db: TestSchema,
    readonly prisma: PrismaClient,
    readonly outbox: Outbox,
    readonly relay: OutboxRelay,
    private readonly connection: AmqpConnection,
    private readonly publisher: EventPublisher,
  ) {}

  static async start({ amqpUrl, namePrefix }: { amqpUrl: string; namePrefix: string }): Promise<TestProducer> {
    const db = await createTestSchema('producer');
    await withConnection(db.databaseUrl, (client) => client.query(`SET search_path TO ${quoteIdent(db.schema)};\n${outboxMigrationScripts().join('\n')}`));
    const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 5 });
    const connection = new AmqpConnection({ url: amqpUrl, name: 'test-producer', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 500 } });
    const publisher = new EventPublisher(connection, { names: brokerNames(namePrefix), confirmTimeoutMs: 3_000 });
    const relay = new OutboxRelay({
      databaseUrl: db.databaseUrl,
      schema: db.schema,
      publisher,
      broker: connection,
      logger: silentLogger,
      retry: { initialMs: 100, maxMs: 500 },
    });
    relay.start();
    await connection.waitForConnect();
    return new TestProducer(db, prisma, new Outbox(db.schema), relay, connection, publisher);
  }

  /** A business transaction recording one event; returns the event (message) id. */
  record<Type extends EventType>(type: Type, payload: EventPayload<Type>): Promise<string> {
    return this.prisma.$transaction((tx) => this.outbox.record(tx, type, payload));
  }

  async close(): Promise<void> {
    await this.relay.stop();
    await this.publisher.close();
    await this.connection.close();
    await this.prisma.$disconnect();
    await this.db.drop();
  }
}
