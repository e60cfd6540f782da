import { Controller, Param } from '@nestjs/common';
import { type BodyOf, GEOGRAPHY_ROUTES as ROUTES, type QueryOf, type ResponseOf } from '@school/contracts';
import { paginated, success } from '@school/http';
import { PublicIdPipe } from '@school/http/nest';
import { Route, RouteBody, RouteQuery } from '@school/service';
import { GeographyService } from './geography.service.js';

const PROVINCE_ID = new PublicIdPipe('PROVINCE_NOT_FOUND');
const DISTRICT_ID = new PublicIdPipe('DISTRICT_NOT_FOUND');
const MUNICIPALITY_ID = new PublicIdPipe('MUNICIPALITY_NOT_FOUND');

/** Spec §4.7: the twelve routes of GEOGRAPHY_ROUTES. A publicId that is not a UUID names no row: 404 of its level. */
@Controller()
export class GeographyController {
  constructor(private readonly geography: GeographyService) {}

  @Route(ROUTES.listProvinces)
  async listProvinces(@RouteQuery() query: QueryOf<typeof ROUTES.listProvinces>): Promise<ResponseOf<typeof ROUTES.listProvinces>> {
    return success('Provinces', await this.geography.listProvinces(query));
  }

  @Route(ROUTES.createProvince)
  async createProvince(@RouteBody() body: BodyOf<typeof ROUTES.createProvince>): Promise<ResponseOf<typeof ROUTES.createProvince>> {
    return success('Province created', await this.geography.createProvince(body));
  }

  @Route(ROUTES.updateProvince)
  async updateProvince(
    @Param('publicId', PROVINCE_ID) publicId: string,
    @RouteBody() body: BodyOf<typeof ROUTES.updateProvince>,
  ): Promise<ResponseOf<typeof ROUTES.updateProvince>> {
    return success('Province updated', await this.geography.updateProvince(publicId, body));
  }

  @Route(ROUTES.deleteProvince)
  async deleteProvince(@Param('publicId', PROVINCE_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.deleteProvince>> {
    await this.geography.deleteProvince(publicId);
    return success('Province deleted', null);
  }

  @Route(ROUTES.listDistricts)
  async listDistricts(@RouteQuery() query: QueryOf<typeof ROUTES.listDistricts>): Promise<ResponseOf<typeof ROUTES.listDistricts>> {
    return success('Districts', await this.geography.listDistricts(query));
  }

  @Route(ROUTES.createDistrict)
  async createDistrict(@RouteBody() body: BodyOf<typeof ROUTES.createDistrict>): Promise<ResponseOf<typeof ROUTES.createDistrict>> {
    return success('District created', await this.geography.createDistrict(body));
  }

  @Route(ROUTES.updateDistrict)
  async updateDistrict(
    @Param('publicId', DISTRICT_ID) publicId: string,
    @RouteBody() body: BodyOf<typeof ROUTES.updateDistrict>,
  ): Promise<ResponseOf<typeof ROUTES.updateDistrict>> {
    return success('District updated', await this.geography.updateDistrict(publicId, body));
  }

  @Route(ROUTES.deleteDistrict)
  async deleteDistrict(@Param('publicId', DISTRICT_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.deleteDistrict>> {
    await this.geography.deleteDistrict(publicId);
    return success('District deleted', null);
  }

  @Route(ROUTES.listMunicipalities)
  async listMunicipalities(@RouteQuery() query: QueryOf<typeof ROUTES.listMunicipalities>): Promise<ResponseOf<typeof ROUTES.listMunicipalities>> {
    const { municipalities, page } = await this.geography.listMunicipalities(query);
    return paginated('Municipalities', municipalities, page);
  }

  @Route(ROUTES.createMunicipality)
  async createMunicipality(@RouteBody() body: BodyOf<typeof ROUTES.createMunicipality>): Promise<ResponseOf<typeof ROUTES.createMunicipality>> {
    return success('Municipality created', await this.geography.createMunicipality(body));
  }

  @Route(ROUTES.updateMunicipality)
  async updateMunicipality(
    @Param('publicId', MUNICIPALITY_ID) publicId: string,
    @RouteBody() body: BodyOf<typeof ROUTES.updateMunicipality>,
  ): Promise<ResponseOf<typeof ROUTES.updateMunicipality>> {
    return success('Municipality updated', await this.geography.updateMunicipality(publicId, body));
  }

  @Route(ROUTES.deleteMunicipality)
  async deleteMunicipality(@Param('publicId', MUNICIPALITY_ID) publicId: string): Promise<ResponseOf<typeof ROUTES.deleteMunicipality>> {
    await this.geography.deleteMunicipality(publicId);
    return success('Municipality deleted', null);
  }
}
