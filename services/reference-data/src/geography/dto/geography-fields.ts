import { queryBoolean, singleLine } from '@school/http';
import { z } from 'zod';
import { MunicipalityType } from '../../generated/prisma/enums.js';

/** Spec §2.8 MUNICIPALITY_TYPES; `vdc` is accepted although no seeded row uses it. */
export const MUNICIPALITY_TYPES = Object.values(MunicipalityType);

/** Spec §8 geography limits. */
export const GEOGRAPHY_LIMITS = { name: 120, nameNp: 120, code: 20, wardCountMin: 1, wardCountMax: 35 } as const;

const INT4_MAX = 2_147_483_647;

export const geographyName = singleLine(1, GEOGRAPHY_LIMITS.name);
/** Optional labels; `null` on update clears them. */
export const geographyNameNp = singleLine(1, GEOGRAPHY_LIMITS.nameNp);
export const geographyCode = singleLine(1, GEOGRAPHY_LIMITS.code);
export const municipalityType = z.enum(MunicipalityType, { message: `must be one of ${MUNICIPALITY_TYPES.join(', ')}` });
export const wardCount = z
  .number({ message: 'must be an integer' })
  .int('must be an integer')
  .min(GEOGRAPHY_LIMITS.wardCountMin, `must be at least ${GEOGRAPHY_LIMITS.wardCountMin}`)
  .max(GEOGRAPHY_LIMITS.wardCountMax, `must be at most ${GEOGRAPHY_LIMITS.wardCountMax}`);

/** A parent id in a body: an integer id of the level above. */
export const geographyId = z.number({ message: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').max(INT4_MAX, 'is too large');

/** A parent id in a query string. */
export const geographyIdQuery = z
  .string()
  .regex(/^\d{1,10}$/, 'must be an integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(INT4_MAX, 'is too large'));

export const includeInactive = queryBoolean.default(false);
