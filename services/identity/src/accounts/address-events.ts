import { Injectable } from '@nestjs/common';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import type { User } from '../generated/prisma/client.js';
import type { CheckedAddress } from './address-geography.js';

/**
 * Tells reference-data, through the outbox, the address a user's write committed (contract §9):
 * recorded in the write's transaction, so the event exists if and only if the address does. It
 * carries the version the write gave the address and the claim the write relied on; reference-data
 * keeps the highest version and releases the claim.
 */
@Injectable()
export class AddressEvents {
  constructor(private readonly outbox: Outbox) {}

  async changed(tx: Transaction, user: User, checked: CheckedAddress | undefined): Promise<void> {
    const { addressProvinceId: provinceId, addressDistrictId: districtId, addressMunicipalityId: municipalityId } = user;
    const address = provinceId !== null && districtId !== null && municipalityId !== null ? { provinceId, districtId, municipalityId } : null;
    await this.outbox.record(tx, EVENT_TYPES.userAddressChanged, { userId: user.publicId, address, version: user.addressVersion, claimId: checked?.claimId ?? null });
  }
}
