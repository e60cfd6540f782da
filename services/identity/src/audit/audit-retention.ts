import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, PeriodicTask } from '@school/service';
import { AuditEntriesRepository } from './audit-entries.repository.js';
import type { AuditConfig } from './audit.config.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Rows per DELETE statement: short statements keep locks and WAL bursts small. */
const BATCH = 5_000;

/**
 * Contract §13: entries are kept AUDIT_RETENTION_DAYS, then removed, at start and every hour, in
 * batches. Every replica runs it: a batch skips the rows another replica is deleting, so replicas
 * share the work and none waits on another.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private readonly task = new PeriodicTask(
    HOUR_MS,
    () => this.prune(),
    (error) => this.logger.warn({ err: error }, 'Removing audit entries past their retention failed; next try in an hour'),
  );
  private readonly retentionMs: number;

  constructor(
    private readonly entries: AuditEntriesRepository,
    @Inject(APP_CONFIG) config: AuditConfig,
  ) {
    this.retentionMs = config.AUDIT_RETENTION_DAYS * DAY_MS;
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** Removes every entry that occurred before now minus the retention; how many this replica removed. */
  async prune(now = new Date(), batch = BATCH): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    let removed = 0;
    for (let deleted = batch; deleted === batch; removed += deleted) deleted = await this.entries.pruneBatch(cutoff, batch);
    await this.entries.pruneErased(cutoff);
    if (removed > 0) this.logger.log({ removed, cutoff }, 'Removed audit entries past their retention');
    return removed;
  }
}
