import type { DistrictDto, MunicipalityDto, ProvinceDto } from '@school/contracts';
import type { District, Municipality, Province } from '../generated/prisma/client.js';
import type { DistrictRow, MunicipalityRow } from './geography.repository.js';

/** Spec §2.8 ProvinceDto, DistrictDto and MunicipalityDto (declared with the routes, @school/contracts) of their rows. */
function baseDto(row: Province | District | Municipality): ProvinceDto {
  return {
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    nameNp: row.nameNp,
    code: row.code,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const provinceDto = (row: Province): ProvinceDto => baseDto(row);

export const districtDto = (row: DistrictRow): DistrictDto => ({ ...baseDto(row), provinceId: row.provinceId, provinceName: row.province.name });

export const municipalityDto = (row: MunicipalityRow): MunicipalityDto => ({
  ...baseDto(row),
  districtId: row.districtId,
  districtName: row.district.name,
  type: row.type,
  wardCount: row.wardCount,
});
