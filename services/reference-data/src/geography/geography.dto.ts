import type { District, Municipality, MunicipalityType, Province } from '../generated/prisma/client.js';
import type { DistrictRow, MunicipalityRow } from './geography.repository.js';

/** Spec §2.8 ProvinceDto. */
export interface ProvinceDto {
  id: number;
  publicId: string;
  name: string;
  nameNp: string | null;
  code: string | null;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Spec §2.8 DistrictDto: the ProvinceDto fields (`code` included, contract §6) plus its province. */
export interface DistrictDto extends ProvinceDto {
  provinceId: number;
  provinceName: string;
}

/** Spec §2.8 MunicipalityDto. */
export interface MunicipalityDto extends ProvinceDto {
  districtId: number;
  districtName: string;
  type: MunicipalityType;
  wardCount: number | null;
}

function baseDto(row: Province | District | Municipality): ProvinceDto {
  return {
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    nameNp: row.nameNp,
    code: row.code,
    isActive: row.isActive,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
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
