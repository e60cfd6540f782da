import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, PeriodicTask } from '@school/service';
import { CredentialsService } from '../credentials/credentials.service.js';
import { TwoStepSignIn } from '../mfa/two-step-sign-in.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { RetentionConfig } from './retention.config.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Rows per DELETE statement: short statements keep locks and WAL bursts small. */
const BATCH = 5_000;

export interface PruneReport {
  sessions: number;
  refreshTokens: number;
  credentials: number;
  mfaChallenges: number;
}

/**
 * Deletes, at start and every hour, what identity no longer needs: ended sessions, spent
 * credentials and ended second sign-in steps (contract §12) older than RETENTION_DAYS, rotated refresh tokens past their lifetime. Every replica
 * runs it; deleting the same rows twice is harmless.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionService.name);
  private readonly task = new PeriodicTask(
    HOUR_MS,
    () => this.prune(),
    (error) => this.logger.warn({ err: error }, 'Pruning ended sessions and spent credentials failed; next try in an hour'),
  );
  private readonly retentionMs: number;

  constructor(
    private readonly sessions: SessionsService,
    private readonly credentials: CredentialsService,
    private readonly twoStep: TwoStepSignIn,
    @Inject(APP_CONFIG) config: RetentionConfig,
  ) {
    this.retentionMs = config.RETENTION_DAYS * DAY_MS;
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  async prune(now = new Date()): Promise<PruneReport> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    const { sessions, refreshTokens } = await this.sessions.prune(cutoff, now, BATCH);
    const credentials = await this.credentials.prune(cutoff);
    const mfaChallenges = await this.twoStep.pruneChallenges(cutoff);
    const report = { sessions, refreshTokens, credentials, mfaChallenges };
    if (sessions + refreshTokens + credentials + mfaChallenges > 0) {
      this.logger.log(report, 'Pruned ended sessions, outlived refresh tokens, spent credentials and ended second sign-in steps');
    }
    return report;
  }
}
