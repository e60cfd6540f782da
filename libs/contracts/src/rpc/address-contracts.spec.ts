import { GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE } from './address-contracts.js';

describe('the address contracts between identity and reference-data', () => {
  it('geography check: three positive integer ids, nothing else', () => {
    expect(GEOGRAPHY_CHECK.request.safeParse({ provinceId: 1, districtId: 2, municipalityId: 3 }).success).toBe(true);
    for (const request of [
      { provinceId: 1, districtId: 2 },
      { provinceId: 1, districtId: 2, municipalityId: 3.5 },
      { provinceId: 0, districtId: 2, municipalityId: 3 },
      { provinceId: '1', districtId: 2, municipalityId: 3 },
      { provinceId: 1, districtId: 2, municipalityId: 3, ward: 4 },
    ]) {
      expect(GEOGRAPHY_CHECK.request.safeParse(request).success).toBe(false);
    }
  });

  it('geography check: valid with its claim, or invalid with one of the reasons', () => {
    expect(GEOGRAPHY_CHECK.answer.safeParse({ valid: true, claimId: '0190b6a4-0000-7000-8000-000000000000' }).success).toBe(true);
    expect(GEOGRAPHY_CHECK.answer.safeParse({ valid: true }).success).toBe(false);
    expect(GEOGRAPHY_CHECK.answer.safeParse({ valid: false, reason: 'municipality_not_in_district' }).success).toBe(true);
    expect(GEOGRAPHY_CHECK.answer.safeParse({ valid: false }).success).toBe(false);
    expect(GEOGRAPHY_CHECK.answer.safeParse({ valid: false, reason: 'looks_wrong' }).success).toBe(false);
    expect(GEOGRAPHY_CHECK.answer.safeParse({ valid: true, claimId: '0190b6a4-0000-7000-8000-000000000000', reason: 'province_not_found' }).success).toBe(false);
  });

  it('geography release: one claim id; answered released or not', () => {
    expect(GEOGRAPHY_RELEASE.request.safeParse({ claimId: '0190b6a4-0000-7000-8000-000000000000' }).success).toBe(true);
    expect(GEOGRAPHY_RELEASE.request.safeParse({ claimId: 'nope' }).success).toBe(false);
    expect(GEOGRAPHY_RELEASE.answer.safeParse({ released: false }).success).toBe(true);
  });
});
