import { Injectable, Logger, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DatabaseSchema, UnitOfWork } from '@school/service';
import { Inbox } from '../inbox/inbox.js';

const PRUNE_INTERVAL_MS = 3600_000;

/** Forgets old message ids once an hour. */
@Injectable()
class InboxPruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Inbox');
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly inbox: Inbox) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async prune(): Promise<void> {
    try {
      const deleted = await this.inbox.prune();
      if (deleted > 0) this.logger.log({ deleted, msg: 'pruned old inbox rows' });
    } catch (error) {
      this.logger.warn({ err: error, msg: 'inbox prune failed' });
    }
  }
}

/**
 * For a consuming service (needs DatabaseModule, and `INBOX_MIGRATIONS` among its migrations):
 * provides `Inbox`, the one way a consumer makes an event's effects happen once, and prunes it.
 */
@Module({
  providers: [
    // The inbox lives in the service's own schema, named once by DatabaseModule (contract §1).
    { provide: Inbox, useFactory: (schema: DatabaseSchema, unitOfWork: UnitOfWork) => new Inbox(schema.name, unitOfWork), inject: [DatabaseSchema, UnitOfWork] },
    InboxPruner,
  ],
  exports: [Inbox],
})
export class InboxModule {}
