import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseSchema } from '@school/service';
import { AuditRecorder } from '../audit/audit-recorder.js';
import { Outbox } from '../outbox/outbox.js';

/**
 * A medium test's outbox (docs/testing.md): the schema's `Outbox` and the `AuditRecorder` over it,
 * global as OutboxModule and AuditModule provide them, but without the relay or a broker, so what
 * the use cases record stays in the table for the test to read.
 */
@Module({})
export class OutboxWithoutRelayModule {
  static forRoot(): DynamicModule {
    return {
      module: OutboxWithoutRelayModule,
      global: true,
      providers: [
        { provide: Outbox, useFactory: (schema: DatabaseSchema) => new Outbox(schema.name), inject: [DatabaseSchema] },
        { provide: AuditRecorder, useFactory: (outbox: Outbox) => new AuditRecorder(outbox), inject: [Outbox] },
      ],
      exports: [Outbox, AuditRecorder],
    };
  }
}
