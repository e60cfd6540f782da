import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import { UsersRepository } from '../../accounts/users.repository.js';
import { CredentialPurpose } from '../credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../credentials.config.js';
import { CredentialsService } from '../credentials.service.js';
import { LINK_PATHS, linkTo } from '../links.js';
import { MessageRequestsRepository } from '../message-requests/message-requests.repository.js';

/** Email verification: a link (EMAIL_VERIFICATION_TTL_HOURS) proving the account's mailbox. */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly requests: MessageRequestsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
  ) {}

  /**
   * Takes the request and nothing more: the same single write whether or not an account matches
   * (contract §4). MessageRequestsWorker serves it later with sendLink.
   */
  async resend(email: string): Promise<void> {
    await this.requests.add({ purpose: CredentialPurpose.email_verification, by: 'email', email });
  }

  /**
   * Serves a resend request, in the worker's transaction. For a live, unverified account that is
   * not banned and not yet at the hourly message cap: a new link replacing the earlier one, and its
   * email. For anything else nothing.
   */
  async sendLink(tx: Transaction, email: string): Promise<void> {
    const user = await this.users.findLiveByEmail(email, tx);
    if (!user || user.banned || user.emailVerifiedAt !== null) return;
    const issued = await this.credentials.issueMessage(tx, user, CredentialPurpose.email_verification, user.email, this.credentials.prepare({ token: true, otp: false }));
    if (!issued) return;
    await this.outbox.record(tx, EVENT_TYPES.emailVerificationRequested, {
      userId: user.publicId,
      email: user.email,
      name: user.name,
      verifyUrl: linkTo(this.options.publicBaseUrl, LINK_PATHS.emailVerification, issued.token!),
      expiresAt: issued.expiresAt.toISOString(),
    });
  }

  /** Marks the email verified; a link for an address the account no longer has proves nothing. */
  async confirm(token: string): Promise<void> {
    const done = await this.credentials.redeemByToken(token, 'emailByToken', async ({ tx, user, credential, now }) => {
      if (credential.target !== user.email) throw new AppError('AUTH_VERIFICATION_CODE_INVALID');
      if (user.emailVerifiedAt === null) await this.users.update(user.id, { emailVerifiedAt: now }, tx);
    });
    if (!done) throw new AppError('AUTH_VERIFICATION_CODE_INVALID');
  }
}
