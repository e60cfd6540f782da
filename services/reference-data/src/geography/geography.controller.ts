import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { PERMISSIONS } from '@school/auth';
import { RequirePermissions } from '@school/auth/nest';
import { paginated, success } from '@school/http';
import { PublicIdPipe, ZodPipe } from '@school/http/nest';
import { type CreateDistrictBody, createDistrictBody, type ListDistrictsQuery, listDistrictsQuery, type UpdateDistrictBody, updateDistrictBody } from './dto/district.dto.js';
import {
  type CreateMunicipalityBody,
  createMunicipalityBody,
  type ListMunicipalitiesQuery,
  listMunicipalitiesQuery,
  type UpdateMunicipalityBody,
  updateMunicipalityBody,
} from './dto/municipality.dto.js';
import { type CreateProvinceBody, createProvinceBody, type ListProvincesQuery, listProvincesQuery, type UpdateProvinceBody, updateProvinceBody } from './dto/province.dto.js';
import { GeographyService } from './geography.service.js';

const PROVINCE_ID = new PublicIdPipe('PROVINCE_NOT_FOUND');
const DISTRICT_ID = new PublicIdPipe('DISTRICT_NOT_FOUND');
const MUNICIPALITY_ID = new PublicIdPipe('MUNICIPALITY_NOT_FOUND');

/**
 * The twelve routes of spec §4.7. A publicId that is not a UUID names no row: 404 of its level.
 * Create 201 (Nest's default for POST), update 200, delete 200 with `data: null` (contract §3).
 */
@Controller('api/lookups')
export class GeographyController {
  constructor(private readonly geography: GeographyService) {}

  @Get('provinces')
  @RequirePermissions(PERMISSIONS.Geography_READ)
  async listProvinces(@Query(new ZodPipe(listProvincesQuery)) query: ListProvincesQuery) {
    return success('Provinces', await this.geography.listProvinces(query));
  }

  @Post('provinces')
  @RequirePermissions(PERMISSIONS.Geography_CREATE)
  async createProvince(@Body(new ZodPipe(createProvinceBody)) body: CreateProvinceBody) {
    return success('Province created', await this.geography.createProvince(body));
  }

  @Patch('provinces/:publicId')
  @RequirePermissions(PERMISSIONS.Geography_UPDATE)
  async updateProvince(@Param('publicId', PROVINCE_ID) publicId: string, @Body(new ZodPipe(updateProvinceBody)) body: UpdateProvinceBody) {
    return success('Province updated', await this.geography.updateProvince(publicId, body));
  }

  @Delete('provinces/:publicId')
  @RequirePermissions(PERMISSIONS.Geography_DELETE)
  async deleteProvince(@Param('publicId', PROVINCE_ID) publicId: string) {
    await this.geography.deleteProvince(publicId);
    return success('Province deleted', null);
  }

  @Get('districts')
  @RequirePermissions(PERMISSIONS.Geography_READ)
  async listDistricts(@Query(new ZodPipe(listDistrictsQuery)) query: ListDistrictsQuery) {
    return success('Districts', await this.geography.listDistricts(query));
  }

  @Post('districts')
  @RequirePermissions(PERMISSIONS.Geography_CREATE)
  async createDistrict(@Body(new ZodPipe(createDistrictBody)) body: CreateDistrictBody) {
    return success('District created', await this.geography.createDistrict(body));
  }

  @Patch('districts/:publicId')
  @RequirePermissions(PERMISSIONS.Geography_UPDATE)
  async updateDistrict(@Param('publicId', DISTRICT_ID) publicId: string, @Body(new ZodPipe(updateDistrictBody)) body: UpdateDistrictBody) {
    return success('District updated', await this.geography.updateDistrict(publicId, body));
  }

  @Delete('districts/:publicId')
  @RequirePermissions(PERMISSIONS.Geography_DELETE)
  async deleteDistrict(@Param('publicId', DISTRICT_ID) publicId: string) {
    await this.geography.deleteDistrict(publicId);
    return success('District deleted', null);
  }

  @Get('municipalities')
  @RequirePermissions(PERMISSIONS.Geography_READ)
  async listMunicipalities(@Query(new ZodPipe(listMunicipalitiesQuery)) query: ListMunicipalitiesQuery) {
    const { municipalities, page } = await this.geography.listMunicipalities(query);
    return paginated('Municipalities', municipalities, page);
  }

  @Post('municipalities')
  @RequirePermissions(PERMISSIONS.Geography_CREATE)
  async createMunicipality(@Body(new ZodPipe(createMunicipalityBody)) body: CreateMunicipalityBody) {
    return success('Municipality created', await this.geography.createMunicipality(body));
  }

  @Patch('municipalities/:publicId')
  @RequirePermissions(PERMISSIONS.Geography_UPDATE)
  async updateMunicipality(@Param('publicId', MUNICIPALITY_ID) publicId: string, @Body(new ZodPipe(updateMunicipalityBody)) body: UpdateMunicipalityBody) {
    return success('Municipality updated', await this.geography.updateMunicipality(publicId, body));
  }

  @Delete('municipalities/:publicId')
  @RequirePermissions(PERMISSIONS.Geography_DELETE)
  async deleteMunicipality(@Param('publicId', MUNICIPALITY_ID) publicId: string) {
    await this.geography.deleteMunicipality(publicId);
    return success('Municipality deleted', null);
  }
}
