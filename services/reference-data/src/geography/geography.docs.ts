import { PERMISSIONS } from '@school/auth';
import { paginatedEnvelope, publicIdParams, type RouteDoc, successEnvelope, nullEnvelope, timestamp } from '@school/openapi';
import { z } from 'zod';
import { createDistrictBody, listDistrictsQuery, updateDistrictBody } from './dto/district.dto.js';
import { municipalityType } from './dto/geography-fields.js';
import { createMunicipalityBody, listMunicipalitiesQuery, updateMunicipalityBody } from './dto/municipality.dto.js';
import { createProvinceBody, listProvincesQuery, updateProvinceBody } from './dto/province.dto.js';

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
const district = province.extend({ provinceId: z.number().int(), provinceName: z.string() });
const municipality = province.extend({
  districtId: z.number().int(),
  districtName: z.string(),
  type: municipalityType,
  wardCount: z.number().int().nullable(),
});

const TAG = 'geography';
const readOnly = [PERMISSIONS.Geography_READ];

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

/** Spec §4.7: the twelve geography routes, three identical families. */
export const GEOGRAPHY_ROUTES: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/lookups/provinces',
    tag: TAG,
    summary: 'List provinces (unpaginated, name order)',
    query: listProvincesQuery,
    response: { status: 200, description: 'Provinces', schema: successEnvelope(z.array(province)), example: { message: 'Provinces', data: [provinceExample], errorCode: null } },
    permissions: readOnly,
  },
  {
    method: 'POST',
    path: '/api/lookups/provinces',
    tag: TAG,
    summary: 'Create a province',
    body: { json: createProvinceBody, example: { name: 'Koshi', nameNp: 'कोशी', code: 'P1' } },
    response: { status: 201, description: 'Province created', schema: successEnvelope(province) },
    errors: ['GEOGRAPHY_NAME_TAKEN'],
    permissions: [PERMISSIONS.Geography_CREATE],
  },
  {
    method: 'PATCH',
    path: '/api/lookups/provinces/{publicId}',
    tag: TAG,
    summary: 'Update a province (rename refused while referenced)',
    params: publicIdParams,
    body: { json: updateProvinceBody, example: { isActive: false } },
    response: { status: 200, description: 'Province updated', schema: successEnvelope(province) },
    errors: ['PROVINCE_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
    permissions: [PERMISSIONS.Geography_UPDATE],
  },
  {
    method: 'DELETE',
    path: '/api/lookups/provinces/{publicId}',
    tag: TAG,
    summary: 'Delete an unreferenced province',
    params: publicIdParams,
    response: { status: 200, description: 'Province deleted', schema: nullEnvelope },
    errors: ['PROVINCE_NOT_FOUND', 'GEOGRAPHY_IN_USE'],
    permissions: [PERMISSIONS.Geography_DELETE],
  },
  {
    method: 'GET',
    path: '/api/lookups/districts',
    tag: TAG,
    summary: 'List districts (unpaginated, name order)',
    query: listDistrictsQuery,
    response: { status: 200, description: 'Districts', schema: successEnvelope(z.array(district)) },
    permissions: readOnly,
  },
  {
    method: 'POST',
    path: '/api/lookups/districts',
    tag: TAG,
    summary: 'Create a district',
    body: { json: createDistrictBody, example: { provinceId: 3, name: 'Lalitpur' } },
    response: { status: 201, description: 'District created', schema: successEnvelope(district) },
    errors: ['PROVINCE_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN'],
    permissions: [PERMISSIONS.Geography_CREATE],
  },
  {
    method: 'PATCH',
    path: '/api/lookups/districts/{publicId}',
    tag: TAG,
    summary: 'Update a district (rename or move refused while referenced)',
    params: publicIdParams,
    body: { json: updateDistrictBody, example: { nameNp: 'ललितपुर' } },
    response: { status: 200, description: 'District updated', schema: successEnvelope(district) },
    errors: ['DISTRICT_NOT_FOUND', 'PROVINCE_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
    permissions: [PERMISSIONS.Geography_UPDATE],
  },
  {
    method: 'DELETE',
    path: '/api/lookups/districts/{publicId}',
    tag: TAG,
    summary: 'Delete an unreferenced district',
    params: publicIdParams,
    response: { status: 200, description: 'District deleted', schema: nullEnvelope },
    errors: ['DISTRICT_NOT_FOUND', 'GEOGRAPHY_IN_USE'],
    permissions: [PERMISSIONS.Geography_DELETE],
  },
  {
    method: 'GET',
    path: '/api/lookups/municipalities',
    tag: TAG,
    summary: 'List municipalities (paginated by default; pagination=false returns at most 1000)',
    query: listMunicipalitiesQuery,
    response: { status: 200, description: 'Municipalities', schema: paginatedEnvelope(municipality) },
    permissions: readOnly,
  },
  {
    method: 'POST',
    path: '/api/lookups/municipalities',
    tag: TAG,
    summary: 'Create a municipality',
    body: { json: createMunicipalityBody, example: { districtId: 27, name: 'Godawari', type: 'municipality', wardCount: 14 } },
    response: { status: 201, description: 'Municipality created', schema: successEnvelope(municipality) },
    errors: ['DISTRICT_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN'],
    permissions: [PERMISSIONS.Geography_CREATE],
  },
  {
    method: 'PATCH',
    path: '/api/lookups/municipalities/{publicId}',
    tag: TAG,
    summary: 'Update a municipality (rename or move refused while referenced)',
    params: publicIdParams,
    body: { json: updateMunicipalityBody, example: { wardCount: 15 } },
    response: { status: 200, description: 'Municipality updated', schema: successEnvelope(municipality) },
    errors: ['MUNICIPALITY_NOT_FOUND', 'DISTRICT_NOT_FOUND', 'GEOGRAPHY_NAME_TAKEN', 'GEOGRAPHY_RENAME_REFERENCED'],
    permissions: [PERMISSIONS.Geography_UPDATE],
  },
  {
    method: 'DELETE',
    path: '/api/lookups/municipalities/{publicId}',
    tag: TAG,
    summary: 'Delete an unreferenced municipality',
    params: publicIdParams,
    response: { status: 200, description: 'Municipality deleted', schema: nullEnvelope },
    errors: ['MUNICIPALITY_NOT_FOUND', 'GEOGRAPHY_IN_USE'],
    permissions: [PERMISSIONS.Geography_DELETE],
  },
];
