import { Injectable } from '@nestjs/common';
import { type FieldError, validationFailed } from '@school/http';
import { GEOGRAPHY_CHECK, type GeographyCheckReason, RpcClient } from '@school/messaging';
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
 * Contract §6: an address's province, district and municipality must exist and nest, which only
 * reference-data knows (GEOGRAPHY_CHECK over RabbitMQ). Asked before any transaction opens: with no
 * answer in time the call rejects with RpcUnavailableError (503 SERVICE_UNAVAILABLE) and nothing
 * has been written.
 */
@Injectable()
export class AddressGeography {
  constructor(private readonly rpc: RpcClient) {}

  /** Throws 400 VALIDATION_FAILED naming the field reference-data refused. */
  async requireValid(address: AddressBody): Promise<void> {
    const { provinceId, districtId, municipalityId } = address;
    const answer = await this.rpc.call(GEOGRAPHY_CHECK, { provinceId, districtId, municipalityId });
    if (!answer.valid) throw validationFailed([REFUSALS[answer.reason]]);
  }
}
