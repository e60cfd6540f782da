import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { contextFromTraceparent, inSpan, SpanKind } from '@school/telemetry';
import { PeriodicTask, type Transaction, UnitOfWork } from '@school/service';
import { CredentialPurpose, lifetimeMs } from './credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from './credentials.config.js';
import { EmailVerificationService } from './email-verification/email-verification.service.js';
import { PasswordResetService } from './password-reset/password-reset.service.js';
import type { MessageRequest } from './message-requests/message-request.js';
import { MessageRequestsRepository } from './message-requests/message-requests.repository.js';

/** Failures after which a request is dropped rather than retried. */
const MAX_FAILURES = 3;

/**
 * Deals with the forgot and resend requests the public routes took (contract §4): on a fixed
 * schedule, not at the request, so neither the answer nor the moment the work runs tells whether an
 * account exists. Each request is claimed, served (a credential and its message, or nothing) and
 * deleted in one transaction; replicas share the table (`SKIP LOCKED`), a crash releases the claim.
 * A request older than a reset code's lifetime is dropped: its message would come too late.
 */
@Injectable()
export class MessageRequestsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MessageRequestsWorker.name);
  private readonly task: PeriodicTask;

  constructor(
    private readonly repository: MessageRequestsRepository,
    private readonly passwordReset: PasswordResetService,
    private readonly emailVerification: EmailVerificationService,
    private readonly unitOfWork: UnitOfWork,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
  ) {
    this.task = new PeriodicTask(
      options.messageRequestsIntervalMs,
      () => this.work(),
      (error) => this.logger.warn({ err: error }, 'Serving forgot and resend requests failed; next try at the next interval'),
    );
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** Serves every request taken before the call; resolves when they are done (a run in flight may have missed the newest). */
  async drain(): Promise<void> {
    await this.task.runNow();
    await this.task.runNow();
  }

  private async work(): Promise<void> {
    const stale = Date.now() - lifetimeMs(CredentialPurpose.password_reset, this.options.lifetimes);
    const dropped = await this.repository.removeOlderThan(new Date(stale));
    if (dropped > 0) this.logger.warn({ dropped }, 'Dropped forgot and resend requests not served within a reset code lifetime');
    while (await this.serveOldest());
  }

  /** False when no request is waiting. */
  private async serveOldest(): Promise<boolean> {
    let claimed: number | undefined;
    try {
      return await this.unitOfWork.run(async (tx) => {
        const pending = await this.repository.claimOldest(tx);
        if (!pending) return false;
        claimed = pending.id;
        // Within the trace of the forgot or resend request: the event it records, and its email, join it.
        await inSpan(`serve ${pending.request.purpose} request`, { kind: SpanKind.INTERNAL, parent: contextFromTraceparent(pending.traceparent) }, () =>
          this.serve(tx, pending.request),
        );
        await this.repository.remove(tx, pending.id);
        return true;
      });
    } catch (error) {
      if (claimed === undefined) throw error;
      const dropped = await this.repository.recordFailure(claimed, MAX_FAILURES);
      this.logger.error(
        { err: error, request: claimed, dropped },
        dropped ? 'A forgot or resend request kept failing; dropped' : 'Serving a forgot or resend request failed; will retry',
      );
      return true;
    }
  }

  private serve(tx: Transaction, request: MessageRequest): Promise<void> {
    switch (request.purpose) {
      case CredentialPurpose.password_reset:
        return this.passwordReset.sendReset(tx, request);
      case CredentialPurpose.email_verification:
        return this.emailVerification.sendLink(tx, request.email);
    }
  }
}
