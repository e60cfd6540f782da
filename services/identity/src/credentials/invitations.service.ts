import { Inject, Injectable } from '@nestjs/common';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import type { User } from '../generated/prisma/client.js';
import { CredentialPurpose } from './credential-state.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from './credentials.config.js';
import { CredentialsService } from './credentials.service.js';
import { LINK_PATHS, linkTo } from './links.js';

/**
 * Invitations of accounts an administrator creates (contract §6): an account_invite credential
 * (link token only, INVITE_TTL_DAYS) redeemed through the reset route's token branch.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly outbox: Outbox,
    @Inject(CREDENTIALS_OPTIONS) private readonly options: CredentialsOptions,
  ) {}

  /**
   * In the caller's transaction: the invitation, replacing the person's other live account-entry
   * credential, and its email (the link, no code: spec §4.2 rule 5) recorded in the outbox.
   */
  async issue(tx: Transaction, user: User): Promise<void> {
    const issued = await this.credentials.issue(tx, user, CredentialPurpose.account_invite, user.email, this.credentials.prepare({ token: true, otp: false }));
    await this.outbox.record(tx, EVENT_TYPES.invitationCreated, {
      userId: user.publicId,
      email: user.email,
      name: user.name,
      role: user.role,
      inviteUrl: linkTo(this.options.publicBaseUrl, LINK_PATHS.invitation, issued.token!),
      expiresAt: issued.expiresAt.toISOString(),
    });
  }
}
