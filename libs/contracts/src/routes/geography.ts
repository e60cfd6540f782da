import { z } from 'zod';
import { nullEnvelope, paginatedEnvelope, publicIdParams, successEnvelope, timestamp } from '../http/envelopes.js';
import { listQueryShape } from '../http/list-query.js';
import { queryBoolean, singleLine } from '../http/text-fields.js';
import type { ErrorCode } from '../http/error-codes.js';
import { routeManifest, routeSpec } from './route-spec.js';

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

/** Spec §2.8 UpdateProvinceDto: every field of create, optional. */
export const updateProvinceBody = createProvinceBody.partial();
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

/** Spec §2.8 UpdateDistrictDto: every field of create, optional. */
export const updateDistrictBody = createDistrictBody.partial();
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

/** Spec §2.8 UpdateMunicipalityDto: every field of create, optional. */
export const updateMunicipalityBody = createMunicipalityBody.partial();
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
/** A row of any level: a province's fields, and those of the levels below where the row has them. */
export type GeographyRowDto = ProvinceDto & Partial<DistrictDto & MunicipalityDto>;

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

interface Level<Create extends z.ZodType, Update extends z.ZodType, Dto extends z.ZodType> {
  path: string;
  /** `province`, `district`, `municipality`. */
  noun: string;
  dto: Dto;
  create: { json: Create; example: unknown };
  update: { json: Update; example: unknown };
  notFound: ErrorCode;
  /** The level above's 404: creating or moving under a missing parent (spec §4.7 rule 3). */
  parentNotFound?: ErrorCode;
}

/** The create, update and delete routes of one level: the three families differ only in names, bodies and parent. */
function levelWrites<const Create extends z.ZodType, const Update extends z.ZodType, const Dto extends z.ZodType>(level: Level<Create, Update, Dto>) {
  const label = `${level.noun[0]!.toUpperCase()}${level.noun.slice(1)}`;
  const parent = level.parentNotFound ? [level.parentNotFound] : [];
  const item = `${level.path}/:publicId`;
  return {
    create: routeSpec({
      method: 'POST',
      path: level.path,
      auth: 'jwt',
      permissions: ['Geography_CREATE'],
      tag: TAG,
      summary: `Create a ${level.noun}`,
      body: level.create,
      response: { status: 201, description: `${label} created`, schema: successEnvelope(level.dto) },
      errors: [...parent, 'GEOGRAPHY_NAME_TAKEN'],
    }),
    update: routeSpec({
      method: 'PATCH',
      path: item,
      auth: 'jwt',
      permissions: ['Geography_UPDATE'],
      tag: TAG,
      summary: `Update a ${level.noun} (${level.parentNotFound ? 'rename or move' : 'rename'} refused while referenced)`,
      params: publicIdParams,
      body: level.update,
      response: { status: 200, description: `${label} updated`, schema: successEnvelope(level.dto) },
      errors: [level.notFound, ...parent, 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
    }),
    delete: routeSpec({
      method: 'DELETE',
      path: item,
      auth: 'jwt',
      permissions: ['Geography_DELETE'],
      tag: TAG,
      summary: `Delete an unreferenced ${level.noun}`,
      params: publicIdParams,
      response: { status: 200, description: `${label} deleted`, schema: nullEnvelope },
      errors: [level.notFound, 'GEOGRAPHY_IN_USE'],
    }),
  };
}

const PROVINCES = '/api/lookups/provinces';
const DISTRICTS = '/api/lookups/districts';
const MUNICIPALITIES = '/api/lookups/municipalities';

const provinceWrites = levelWrites({
  path: PROVINCES,
  noun: 'province',
  dto: province,
  create: { json: createProvinceBody, example: { name: 'Koshi', nameNp: 'कोशी', code: 'P1' } },
  update: { json: updateProvinceBody, example: { isActive: false } },
  notFound: 'PROVINCE_NOT_FOUND',
});
const districtWrites = levelWrites({
  path: DISTRICTS,
  noun: 'district',
  dto: district,
  create: { json: createDistrictBody, example: { provinceId: 3, name: 'Lalitpur' } },
  update: { json: updateDistrictBody, example: { nameNp: 'ललितपुर' } },
  notFound: 'DISTRICT_NOT_FOUND',
  parentNotFound: 'PROVINCE_NOT_FOUND',
});
const municipalityWrites = levelWrites({
  path: MUNICIPALITIES,
  noun: 'municipality',
  dto: municipality,
  create: { json: createMunicipalityBody, example: { districtId: 27, name: 'Godawari', type: 'municipality', wardCount: 14 } },
  update: { json: updateMunicipalityBody, example: { wardCount: 15 } },
  notFound: 'MUNICIPALITY_NOT_FOUND',
  parentNotFound: 'DISTRICT_NOT_FOUND',
});

/**
 * Spec §4.7: the twelve geography routes, three identical families. A publicId that is not a UUID
 * names no row: 404 of its level. Update 200, delete 200 with `data: null` (contract §3).
 */
export const GEOGRAPHY_ROUTES = routeManifest({
  listProvinces: {
    method: 'GET',
    path: PROVINCES,
    auth: 'jwt',
    permissions: ['Geography_READ'],
    tag: TAG,
    summary: 'List provinces (unpaginated, name order)',
    query: listProvincesQuery,
    response: { status: 200, description: 'Provinces', schema: successEnvelope(z.array(province)), example: { message: 'Provinces', data: [provinceExample], errorCode: null } },
  },
  createProvince: provinceWrites.create,
  updateProvince: provinceWrites.update,
  deleteProvince: provinceWrites.delete,
  listDistricts: {
    method: 'GET',
    path: DISTRICTS,
    auth: 'jwt',
    permissions: ['Geography_READ'],
    tag: TAG,
    summary: 'List districts (unpaginated, name order)',
    query: listDistrictsQuery,
    response: { status: 200, description: 'Districts', schema: successEnvelope(z.array(district)) },
  },
  createDistrict: districtWrites.create,
  updateDistrict: districtWrites.update,
  deleteDistrict: districtWrites.delete,
  listMunicipalities: {
    method: 'GET',
    path: MUNICIPALITIES,
    auth: 'jwt',
    permissions: ['Geography_READ'],
    tag: TAG,
    summary: 'List municipalities (paginated by default; pagination=false returns at most 1000)',
    query: listMunicipalitiesQuery,
    response: { status: 200, description: 'Municipalities', schema: paginatedEnvelope(municipality) },
  },
  createMunicipality: municipalityWrites.create,
  updateMunicipality: municipalityWrites.update,
  deleteMunicipality: municipalityWrites.delete,
});
