import { Inject, Injectable } from '@nestjs/common';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import { UsersRepository } from '../../accounts/users.repository.js';
import { CredentialPurpose } from '../credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../credentials.config.js';
import { CredentialsService } from '../credentials.service.js';
import type { ForgotPasswordRequest } from '../dto/forgot-password.dto.js';
import { LINK_PATHS, linkTo } from '../links.js';
import { MessageRequestsRepository } from '../message-requests/message-requests.repository.js';

/**
 * Forgot (spec §3.1, §4.2 rules 1-3, contract §4): never tells whether an account exists, by its
 * answer or by its time: the route only takes the request, served later off the request's path.
 * The reset that redeems what it sends is a use case above (auth/use-cases/reset-password.ts).
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly requests: MessageRequestsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
  ) {}

  /**
   * Takes the request and nothing more: the same single write whether or not an account matches,
   * so the answer takes as long either way (contract §4). MessageRequestsWorker serves it later
   * with sendReset.
   */
  async forgot(request: ForgotPasswordRequest): Promise<void> {
    await this.requests.add({ purpose: CredentialPurpose.password_reset, ...request });
  }

  /**
   * Serves a forgot request, in the worker's transaction. For a live account that is not banned,
   * found by its email or by its verified phone (contract §4: never an unverified one), and not yet
   * at the hourly message cap: a password_reset credential holding a link token and a code,
   * replacing the person's earlier reset, and the message carrying them (email: link and code in one
   * message; phone: the code by SMS). For anything else: nothing.
   */
  async sendReset(tx: Transaction, request: ForgotPasswordRequest): Promise<void> {
    const user = request.by === 'email' ? await this.users.findLiveByEmail(request.email, tx) : await this.users.findLiveByVerifiedPhone(request.phone, tx);
    if (!user || user.banned) return;
    const target = request.by === 'email' ? user.email : request.phone;
    const issued = await this.credentials.issueMessage(tx, user, CredentialPurpose.password_reset, target, this.credentials.prepare({ token: true, otp: true }));
    if (!issued) return;
    await this.outbox.record(tx, EVENT_TYPES.passwordResetRequested, {
      userId: user.publicId,
      name: user.name,
      otp: issued.otp!,
      expiresAt: issued.expiresAt.toISOString(),
      delivery:
        request.by === 'email'
          ? { channel: 'email', email: user.email, resetUrl: linkTo(this.options.publicBaseUrl, LINK_PATHS.passwordReset, issued.token!) }
          : { channel: 'sms', phone: target },
    });
  }
}
