import { listQueryShape } from '@school/http';
import { z } from 'zod';
import { geographyId, geographyIdQuery, geographyName, geographyNameNp, includeInactive, municipalityType, wardCount } from './geography-fields.js';

/** Spec §2.8 CreateMunicipalityDto. */
export const createMunicipalityBody = z.strictObject({
  districtId: geographyId,
  name: geographyName,
  type: municipalityType,
  nameNp: geographyNameNp.nullable().optional(),
  wardCount: wardCount.nullable().optional(),
  isActive: z.boolean().optional(),
});
export type CreateMunicipalityBody = z.output<typeof createMunicipalityBody>;

/** Spec §2.8 UpdateMunicipalityDto. */
export const updateMunicipalityBody = z.strictObject({
  districtId: geographyId.optional(),
  name: geographyName.optional(),
  type: municipalityType.optional(),
  nameNp: geographyNameNp.nullable().optional(),
  wardCount: wardCount.nullable().optional(),
  isActive: z.boolean().optional(),
});
export type UpdateMunicipalityBody = z.output<typeof updateMunicipalityBody>;

// The sort of a geography list is fixed (spec §2.8): no `order` parameter.
const { order: _fixedOrder, ...paging } = listQueryShape({ defaultOrder: 'asc' });

/** Spec §2.8 ListMunicipalitiesQueryDto. */
export const listMunicipalitiesQuery = z.strictObject({ districtId: geographyIdQuery.optional(), includeInactive, ...paging });
export type ListMunicipalitiesQuery = z.output<typeof listMunicipalitiesQuery>;
