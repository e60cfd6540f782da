import { Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { AppError, type FieldError, validationFailed } from '@school/http';
import { RpcClient } from '@school/messaging';
import { ADDRESS_COMMIT_SECONDS, GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE, type GeographyCheckReason } from '@school/contracts';
import type { AddressBody } from './dto/address.dto.js';

/** The address field each refusal of reference-data names, and why. */
const REFUSALS: Record<GeographyCheckReason, FieldError> = {
  province_not_found: { field: 'address.provinceId', message: 'no such province' },
  district_not_found: { field: 'address.districtId', message: 'no such district' },
  municipality_not_found: { field: 'address.municipalityId', message: 'no such municipality' },
  district_not_in_province: { field: 'address.districtId', message: 'is not a district of the province' },
  municipality_not_in_district: { field: 'address.municipalityId', message: 'is not a municipality of the district' },
};

/**
 * An address reference-data confirmed, and holds against delete and rename under `claimId` until the
 * address's event names the claim (or the claim expires). The clock starts before the question, so
 * the time left is never overestimated.
 */
export class CheckedAddress {
  constructor(
    readonly claimId: string,
    private readonly askedAt: number,
  ) {}

  /**
   * Called last in the transaction that writes the address: past ADDRESS_COMMIT_SECONDS the claim
   * may not outlive the event's way to reference-data, so nothing is written (503; the client may retry).
   */
  assertStillClaimed(): void {
    if (performance.now() - this.askedAt > ADDRESS_COMMIT_SECONDS * 1000) throw new AppError('SERVICE_UNAVAILABLE', undefined, { headers: { 'retry-after': '1' } });
  }
}

/**
 * Contract §6: an address's province, district and municipality must exist and nest, which only
 * reference-data knows (GEOGRAPHY_CHECK over RabbitMQ). Asked before any transaction opens: with no
 * answer in time the call rejects with RpcUnavailableError (503 SERVICE_UNAVAILABLE) and nothing
 * has been written. A valid answer claims the rows until reference-data has the committed address
 * from its event (contract §9; AddressEvents).
 */
@Injectable()
export class AddressGeography {
  private readonly logger = new Logger('AddressGeography');

  constructor(private readonly rpc: RpcClient) {}

  /** Throws 400 VALIDATION_FAILED naming the field reference-data refused. */
  async requireValid(address: AddressBody): Promise<CheckedAddress> {
    const { provinceId, districtId, municipalityId } = address;
    const askedAt = performance.now();
    const answer = await this.rpc.call(GEOGRAPHY_CHECK, { provinceId, districtId, municipalityId });
    if (!answer.valid) throw validationFailed([REFUSALS[answer.reason]]);
    return new CheckedAddress(answer.claimId, askedAt);
  }

  /**
   * Runs the write that relies on `checked` (none: just runs it). A refusal (an AppError) rolled
   * its transaction back, so the claim is released at once rather than when it expires.
   */
  async releasingOnRefusal<T>(checked: CheckedAddress | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (checked && error instanceof AppError) void this.release(checked);
      throw error;
    }
  }

  /**
   * The write that relied on `checked` was refused, so its transaction rolled back: the rows are
   * freed now rather than when the claim expires. Best effort: a failure is logged, never thrown.
   */
  async release(checked: CheckedAddress): Promise<void> {
    try {
      await this.rpc.call(GEOGRAPHY_RELEASE, { claimId: checked.claimId });
    } catch (error) {
      this.logger.warn({ err: error, claimId: checked.claimId, msg: 'address claim not released; it expires on its own' });
    }
  }
}
