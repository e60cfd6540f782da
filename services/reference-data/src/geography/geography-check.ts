import { Injectable } from '@nestjs/common';
import { ADDRESS_CLAIM_SECONDS, GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE, type RpcAnswer, type RpcRequest } from '@school/contracts';
import { RpcHandler } from '@school/messaging/nest';
import { type Transaction, UnitOfWork } from '@school/service';
import { GeographyRepository } from './geography.repository.js';

export type GeographyTriple = RpcRequest<typeof GEOGRAPHY_CHECK>;
export type GeographyVerdict = RpcAnswer<typeof GEOGRAPHY_CHECK>;
/** The verdict on a triple, before any claim: the school profile's check. */
export type GeographyCheckVerdict = { valid: true } | Extract<GeographyVerdict, { valid: false }>;

/**
 * "Do these ids exist and nest?" for an address (identity's users, over GEOGRAPHY_CHECK) and the
 * school profile. Retired rows (`isActive: false`) count as existing: retirement only removes a
 * row from the pick lists (spec §3.3), and an address that named it stays valid.
 */
@Injectable()
export class GeographyCheck {
  constructor(
    private readonly repository: GeographyRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Identity's question for an address. The rows are read under share locks, and a valid triple is
   * claimed in the same transaction: a delete or rename that locked a row first has committed when
   * the check reads it, and one that comes after finds the claim (contract §9). Identity's event for
   * the committed address names the claim, which its usage then replaces (GeographyUsages).
   */
  @RpcHandler(GEOGRAPHY_CHECK)
  answer(request: GeographyTriple): Promise<GeographyVerdict> {
    return this.unitOfWork.run(async (tx) => {
      await this.repository.share('province', request.provinceId, tx);
      await this.repository.share('district', request.districtId, tx);
      await this.repository.share('municipality', request.municipalityId, tx);
      const verdict = await this.check(request, tx);
      if (!verdict.valid) return verdict;
      return { valid: true, claimId: await this.repository.claimAddress(request, ADDRESS_CLAIM_SECONDS, tx) };
    });
  }

  /** Identity's write that relied on the claim was refused and rolled back: its rows are free of it. */
  @RpcHandler(GEOGRAPHY_RELEASE)
  async release(request: RpcRequest<typeof GEOGRAPHY_RELEASE>): Promise<RpcAnswer<typeof GEOGRAPHY_RELEASE>> {
    return { released: await this.repository.releaseClaim(request.claimId) };
  }

  async check(triple: GeographyTriple, tx?: Transaction): Promise<GeographyCheckVerdict> {
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
