import { z } from 'zod';
import { defineRpc } from './rpc-contract.js';

/**
 * What identity asks reference-data about addresses (a user's address names a province, a district
 * and a municipality of reference-data). Reference-data never asks identity: it learns the
 * committed addresses from identity's `identity.user_address_changed` events.
 */

const geographyId = z.number().int().positive().max(2_147_483_647);

/** Why a province / district / municipality triple is no valid address. */
export const GEOGRAPHY_CHECK_REASONS = ['province_not_found', 'district_not_found', 'municipality_not_found', 'district_not_in_province', 'municipality_not_in_district'] as const;
export type GeographyCheckReason = (typeof GEOGRAPHY_CHECK_REASONS)[number];

/**
 * Asked by identity, answered by reference-data: do these three ids exist and nest? A valid answer
 * also claims them (`claimId`): until the `identity.user_address_changed` event naming the claim is
 * consumed, or ADDRESS_CLAIM_SECONDS pass, none of the three is deleted or renamed (contract §9).
 */
export const GEOGRAPHY_CHECK = defineRpc({
  name: 'reference-data.geography.check',
  request: z.object({ provinceId: geographyId, districtId: geographyId, municipalityId: geographyId }).strict(),
  answer: z.discriminatedUnion('valid', [
    z.object({ valid: z.literal(true), claimId: z.uuid() }).strict(),
    z.object({ valid: z.literal(false), reason: z.enum(GEOGRAPHY_CHECK_REASONS) }).strict(),
  ]),
});

/**
 * Asked by identity, answered by reference-data, after a write that relied on a claim was refused
 * and rolled back: the claim holds nothing any more. Best effort; a claim never released expires.
 */
export const GEOGRAPHY_RELEASE = defineRpc({
  name: 'reference-data.geography.release',
  request: z.object({ claimId: z.uuid() }).strict(),
  answer: z.object({ released: z.boolean() }).strict(),
});

/**
 * How long a claim no event confirms holds its rows: the write that asked failed without a refusal
 * (identity lost, a crash) or its event is still on its way (outbox relay, broker, consumer),
 * which it must outlive.
 */
export const ADDRESS_CLAIM_SECONDS = 600;

/** Identity commits a checked address within this many seconds of asking, or answers 503 and writes nothing. */
export const ADDRESS_COMMIT_SECONDS = 15;
