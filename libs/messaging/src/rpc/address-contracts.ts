import { z } from 'zod';
import { defineRpc } from './rpc-contract.js';

/**
 * The two questions reference-data and identity ask each other about addresses (a user's address
 * and the school profile hold a province, a district and a municipality of reference-data).
 */

const geographyId = z.number().int().positive().max(2_147_483_647);

/** Why a province / district / municipality triple is no valid address. */
export const GEOGRAPHY_CHECK_REASONS = [
  'province_not_found',
  'district_not_found',
  'municipality_not_found',
  'district_not_in_province',
  'municipality_not_in_district',
] as const;
export type GeographyCheckReason = (typeof GEOGRAPHY_CHECK_REASONS)[number];

/**
 * Asked by identity, answered by reference-data: do these three ids exist and nest? A valid answer
 * also claims them for ADDRESS_CLAIM_SECONDS: until then none of the three is deleted or renamed
 * (contract §9), so identity may commit the address it checked.
 */
export const GEOGRAPHY_CHECK = defineRpc({
  name: 'reference-data.geography.check',
  request: z.object({ provinceId: geographyId, districtId: geographyId, municipalityId: geographyId }).strict(),
  answer: z.discriminatedUnion('valid', [
    z.object({ valid: z.literal(true) }).strict(),
    z.object({ valid: z.literal(false), reason: z.enum(GEOGRAPHY_CHECK_REASONS) }).strict(),
  ]),
});

/**
 * How long a valid GEOGRAPHY_CHECK holds its rows. Identity commits the checked address within half
 * of it, measured from before it asked, or answers 503 and writes nothing.
 */
export const ADDRESS_CLAIM_SECONDS = 30;

export const GEOGRAPHY_LEVELS = ['province', 'district', 'municipality'] as const;
export type GeographyLevel = (typeof GEOGRAPHY_LEVELS)[number];

/**
 * Asked by reference-data, answered by identity: does any user's address (soft-deleted users
 * included) name this province / district / municipality?
 */
export const ADDRESS_REFERENCES = defineRpc({
  name: 'identity.address.references',
  request: z.object({ level: z.enum(GEOGRAPHY_LEVELS), id: geographyId }).strict(),
  answer: z.object({ referenced: z.boolean() }).strict(),
});

/** Every contract of the product (test clean-up deletes their queues). */
export const RPC_CONTRACTS = Object.freeze([GEOGRAPHY_CHECK, ADDRESS_REFERENCES]);
