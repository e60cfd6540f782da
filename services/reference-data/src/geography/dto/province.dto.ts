import { z } from 'zod';
import { geographyCode, geographyName, geographyNameNp, includeInactive } from './geography-fields.js';

/** Spec §2.8 CreateProvinceDto. */
export const createProvinceBody = z.strictObject({
  name: geographyName,
  nameNp: geographyNameNp.nullable().optional(),
  code: geographyCode.nullable().optional(),
  isActive: z.boolean().optional(),
});
export type CreateProvinceBody = z.output<typeof createProvinceBody>;

/** Spec §2.8 UpdateProvinceDto. */
export const updateProvinceBody = z.strictObject({
  name: geographyName.optional(),
  nameNp: geographyNameNp.nullable().optional(),
  code: geographyCode.nullable().optional(),
  isActive: z.boolean().optional(),
});
export type UpdateProvinceBody = z.output<typeof updateProvinceBody>;

/** Spec §2.8 ListProvincesQueryDto. */
export const listProvincesQuery = z.strictObject({ includeInactive });
export type ListProvincesQuery = z.output<typeof listProvincesQuery>;
