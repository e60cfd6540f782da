import { Injectable, Logger } from '@nestjs/common';
import { decodeEvent, Inbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { GeographyRepository } from '../geography/geography.repository.js';
import { type AddressChange, AddressUsagesRepository } from './address-usages.repository.js';

/**
 * Keeps reference-data's record of which geography rows users' addresses name, from identity's
 * `identity.user_address_changed` events (identity's outbox: one per committed address write, with
 * the committed value). Per message, in ONE transaction: the inbox row (a duplicate id changes
 * nothing), the usage if its version is newer than the recorded one (a late older event changes
 * nothing), and the release of the claim the write relied on; the transport acks after the commit.
 * Claim and usage change in one commit, so a delete checking both under the row's lock sees the
 * address either way (contract §9).
 */
@Injectable()
export class AddressUsagesService {
  private readonly logger = new Logger('AddressUsages');

  constructor(
    private readonly usages: AddressUsagesRepository,
    private readonly geography: GeographyRepository,
    private readonly inbox: Inbox,
  ) {}

  /** Resolves once the change is committed (or was a duplicate): the transport then acks. */
  async handle(body: unknown, messageId: string | undefined): Promise<void> {
    const received = decodeEvent(EVENT_TYPES.userAddressChanged, body, messageId);
    const change = received.event.payload as AddressChange;
    const fresh = await this.inbox.once(received, async (tx) => {
      await this.usages.recordUsage(change, tx);
      if (change.claimId) await this.geography.releaseClaim(change.claimId, tx);
    });
    if (!fresh) this.logger.debug({ messageId: received.messageId, msg: 'duplicate message skipped' });
  }
}
