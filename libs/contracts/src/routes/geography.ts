import { z } from 'zod';
import { nullEnvelope, paginatedEnvelope, publicIdParams, successEnvelope, timestamp } from '../http/envelopes.js';
import { listQueryShape } from '../http/list-query.js';
import { queryBoolean, singleLine } from '../http/text-fields.js';
import { routeManifest } from './route-spec.js';

/** Spec §2.8 MUNICIPALITY_TYPES; `vdc` is accepted although no seeded row uses it. */
export const MUNICIPALITY_TYPES = ['metropolitan', 'sub_metropolitan', 'municipality', 'rural_municipality', 'vdc'] as const;
export type MunicipalityKind = (typeof MUNICIPALITY_TYPES)[number];

/** Spec §8 geography limits. */
export const GEOGRAPHY_LIMITS = { name: 120, nameNp: 120, code: 20, wardCountMin: 1, wardCountMax: 35 } as const;

const INT4_MAX = 2_147_483_647;

const geographyName = singleLine(1, GEOGRAPHY_LIMITS.name);
/** Optional labels; `null` on update clears them. */
const geographyNameNp = singleLine(1, GEOGRAPHY_LIMITS.nameNp);
const geographyCode = singleLine(1, GEOGRAPHY_LIMITS.code);
const municipalityType = z.enum(MUNICIPALITY_TYPES, { message: `must be one of ${MUNICIPALITY_TYPES.join(', ')}` });
const wardCount = z
  .number({ message: 'must be an integer' })
  .int('must be an integer')
  .min(GEOGRAPHY_LIMITS.wardCountMin, `must be at least ${GEOGRAPHY_LIMITS.wardCountMin}`)
  .max(GEOGRAPHY_LIMITS.wardCountMax, `must be at most ${GEOGRAPHY_LIMITS.wardCountMax}`);

/** A parent id in a body: an integer id of the level above. */
export const geographyId = z.number({ message: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').max(INT4_MAX, 'is too large');

/** A parent id in a query string. */
const geographyIdQuery = z
  .string()
  .regex(/^\d{1,10}$/, 'must be an integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(INT4_MAX, 'is too large'));

const includeInactive = queryBoolean.default(false);

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

/** Spec §2.8 ProvinceDto, DistrictDto, MunicipalityDto as the routes answer them. */
const province = z.object({
  id: z.number().int(),
  publicId: z.uuid(),
  name: z.string(),
  nameNp: z.string().nullable(),
  code: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** The ProvinceDto fields (`code` included, contract §6) plus its province. */
const district = province.extend({ provinceId: z.number().int(), provinceName: z.string() });
const municipality = province.extend({
  districtId: z.number().int(),
  districtName: z.string(),
  type: municipalityType,
  wardCount: z.number().int().nullable(),
});
export type ProvinceDto = z.input<typeof province>;
export type DistrictDto = z.input<typeof district>;
export type MunicipalityDto = z.input<typeof municipality>;

const TAG = 'geography';

const provinceExample = {
  id: 3,
  publicId: '0199a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b',
  name: 'Bagmati',
  nameNp: 'बागमती',
  code: 'P3',
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

/**
 * Spec §4.7: the twelve geography routes, three identical families. A publicId that is not a UUID
 * names no row: 404 of its level. Update 200, delete 200 with `data: null` (contract §3).
 */
export const GEOGRAPHY_ROUTES = routeManifest({
  listProvinces: {
    method: 'GET',
    path: '/api/lookups/provinces',
    auth: 'jwt',
    permissions: ['Geography_READ'],
    tag: TAG,
    summary: 'List provinces (unpaginated, name order)',
    query: listProvincesQuery,
    response: { status: 200, description: 'Provinces', schema: successEnvelope(z.array(province)), example: { message: 'Provinces', data: [provinceExample], errorCode: null } },
  },
  createProvince: {
    method: 'POST',
    path: '/api/lookups/provinces',
    auth: 'jwt',
    permissions: ['Geography_CREATE'],
    tag: TAG,
    summary: 'Create a province',
    body: { json: createProvinceBody, example: { name: 'Koshi', nameNp: 'कोशी', code: 'P1' } },
    response: { status: 201, description: 'Province created', schema: successEnvelope(province) },
    errors: ['GEOGRAPHY_NAME_TAKEN'],
  },
  updateProvince: {
    method: 'PATCH',
    path: '/api/lookups/provinces/:publicId',
    auth: 'jwt',
    permissions: ['Geography_UPDATE'],
    tag: TAG,
    summary: 'Update a province (rename refused while referenced)',
    params: publicIdParams,
    body: { json: updateProvinceBody, example: { isActive: false } },
    response: { status: 200, description: 'Province updated', schema: successEnvelope(province) },
    errors: ['PROVINCE_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
  },
  deleteProvince: {
    method: 'DELETE',
    path: '/api/lookups/provinces/:publicId',
    auth: 'jwt',
    permissions: ['Geography_DELETE'],
    tag: TAG,
    summary: 'Delete an unreferenced province',
    params: publicIdParams,
    response: { status: 200, description: 'Province deleted', schema: nullEnvelope },
    errors: ['PROVINCE_NOT_FOUND', 'GEOGRAPHY_IN_USE'],
  },
  listDistricts: {
    method: 'GET',
    path: '/api/lookups/districts',
    auth: 'jwt',
    permissions: ['Geography_READ'],
    tag: TAG,
    summary: 'List districts (unpaginated, name order)',
    query: listDistrictsQuery,
    response: { status: 200, description: 'Districts', schema: successEnvelope(z.array(district)) },
  },
  createDistrict: {
    method: 'POST',
    path: '/api/lookups/districts',
    auth: 'jwt',
    permissions: ['Geography_CREATE'],
    tag: TAG,
    summary: 'Create a district',
    body: { json: createDistrictBody, example: { provinceId: 3, name: 'Lalitpur' } },
    response: { status: 201, description: 'District created', schema: successEnvelope(district) },
    errors: ['PROVINCE_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN'],
  },
  updateDistrict: {
    method: 'PATCH',
    path: '/api/lookups/districts/:publicId',
    auth: 'jwt',
    permissions: ['Geography_UPDATE'],
    tag: TAG,
    summary: 'Update a district (rename or move refused while referenced)',
    params: publicIdParams,
    body: { json: updateDistrictBody, example: { nameNp: 'ललितपुर' } },
    response: { status: 200, description: 'District updated', schema: successEnvelope(district) },
    errors: ['DISTRICT_NOT_FOUND', 'PROVINCE_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
  },
  deleteDistrict: {
    method: 'DELETE',
    path: '/api/lookups/districts/:publicId',
    auth: 'jwt',
    permissions: ['Geography_DELETE'],
    tag: TAG,
    summary: 'Delete an unreferenced district',
    params: publicIdParams,
    response: { status: 200, description: 'District deleted', schema: nullEnvelope },
    errors: ['DISTRICT_NOT_FOUND', 'GEOGRAPHY_IN_USE'],
  },
  listMunicipalities: {
    method: 'GET',
    path: '/api/lookups/municipalities',
    auth: 'jwt',
    permissions: ['Geography_READ'],
    tag: TAG,
    summary: 'List municipalities (paginated by default; pagination=false returns at most 1000)',
    query: listMunicipalitiesQuery,
    response: { status: 200, description: 'Municipalities', schema: paginatedEnvelope(municipality) },
  },
  createMunicipality: {
    method: 'POST',
    path: '/api/lookups/municipalities',
    auth: 'jwt',
    permissions: ['Geography_CREATE'],
    tag: TAG,
    summary: 'Create a municipality',
    body: { json: createMunicipalityBody, example: { districtId: 27, name: 'Godawari', type: 'municipality', wardCount: 14 } },
    response: { status: 201, description: 'Municipality created', schema: successEnvelope(municipality) },
    errors: ['DISTRICT_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN'],
  },
  updateMunicipality: {
    method: 'PATCH',
    path: '/api/lookups/municipalities/:publicId',
    auth: 'jwt',
    permissions: ['Geography_UPDATE'],
    tag: TAG,
    summary: 'Update a municipality (rename or move refused while referenced)',
    params: publicIdParams,
    body: { json: updateMunicipalityBody, example: { wardCount: 15 } },
    response: { status: 200, description: 'Municipality updated', schema: successEnvelope(municipality) },
    errors: ['MUNICIPALITY_NOT_FOUND', 'DISTRICT_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
  },
  deleteMunicipality: {
    method: 'DELETE',
    path: '/api/lookups/municipalities/:publicId',
    auth: 'jwt',
    permissions: ['Geography_DELETE'],
    tag: TAG,
    summary: 'Delete an unreferenced municipality',
    params: publicIdParams,
    response: { status: 200, description: 'Municipality deleted', schema: nullEnvelope },
    errors: ['MUNICIPALITY_NOT_FOUND', 'GEOGRAPHY_IN_USE'],
  },
});
