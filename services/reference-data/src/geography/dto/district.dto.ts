import { z } from 'zod';
import { geographyId, geographyIdQuery, geographyName, geographyNameNp, includeInactive } from './geography-fields.js';

/** Spec §2.8 CreateDistrictDto. */
export const createDistrictBody = z.strictObject({
  provinceId: geographyId,
  name: geographyName,
  nameNp: geographyNameNp.nullable().optional(),
  isActive: z.boolean().optional(),
});
export type CreateDistrictBody = z.output<typeof createDistrictBody>;

/** Spec §2.8 UpdateDistrictDto. */
export const updateDistrictBody = z.strictObject({
  provinceId: geographyId.optional(),
  name: geographyName.optional(),
  nameNp: geographyNameNp.nullable().optional(),
  isActive: z.boolean().optional(),
});
export type UpdateDistrictBody = z.output<typeof updateDistrictBody>;

/** Spec §2.8 ListDistrictsQueryDto. */
export const listDistrictsQuery = z.strictObject({ provinceId: geographyIdQuery.optional(), includeInactive });
export type ListDistrictsQuery = z.output<typeof listDistrictsQuery>;
