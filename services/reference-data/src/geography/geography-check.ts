import { Injectable } from '@nestjs/common';
import { GEOGRAPHY_CHECK, type RpcAnswer, type RpcRequest } from '@school/messaging';
import { RpcHandler } from '@school/messaging/nest';
import type { Transaction } from '@school/service';
import { GeographyRepository } from './geography.repository.js';

export type GeographyTriple = RpcRequest<typeof GEOGRAPHY_CHECK>;
export type GeographyVerdict = RpcAnswer<typeof GEOGRAPHY_CHECK>;

/**
 * "Do these ids exist and nest?" for an address (identity's users, over GEOGRAPHY_CHECK) and the
 * school profile. Retired rows (`isActive: false`) count as existing: retirement only removes a
 * row from the pick lists (spec §3.3), and an address that named it stays valid.
 */
@Injectable()
export class GeographyCheck {
  constructor(private readonly repository: GeographyRepository) {}

  @RpcHandler(GEOGRAPHY_CHECK)
  answer(request: GeographyTriple): Promise<GeographyVerdict> {
    return this.check(request);
  }

  async check(triple: GeographyTriple, tx?: Transaction): Promise<GeographyVerdict> {
    // One after the other: a transaction's connection runs one statement at a time.
    const province = await this.repository.findProvinceById(triple.provinceId, tx);
    const district = await this.repository.findDistrictById(triple.districtId, tx);
    const municipality = await this.repository.findMunicipalityById(triple.municipalityId, tx);
    if (!province) return { valid: false, reason: 'province_not_found' };
    if (!district) return { valid: false, reason: 'district_not_found' };
    if (!municipality) return { valid: false, reason: 'municipality_not_found' };
    if (district.provinceId !== province.id) return { valid: false, reason: 'district_not_in_province' };
    if (municipality.districtId !== district.id) return { valid: false, reason: 'municipality_not_in_district' };
    return { valid: true };
  }
}
