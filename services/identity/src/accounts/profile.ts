import type { Role } from '@school/auth';
import type { User } from '../generated/prisma/client.js';

/** The profile of contract §4, answered by `me`, login, refresh and the users admin routes. */
export interface Profile {
  publicId: string;
  email: string;
  name: string;
  phone: string | null;
  role: Role;
  emailVerified: boolean;
  phoneVerified: boolean;
  /** False while the account has no EMAIL-provider password (spec §2.4). */
  hasPassword: boolean;
  address: ProfileAddress | null;
  createdAt: string;
}

/** A person's address (contract §6): geography ids of reference-data; ward and street null when unset. */
export interface ProfileAddress {
  provinceId: number;
  districtId: number;
  municipalityId: number;
  ward: number | null;
  street: string | null;
}

/** The address columns of the users table, all null when the person has no address. */
export type AddressColumns = Pick<User, 'addressProvinceId' | 'addressDistrictId' | 'addressMunicipalityId' | 'addressWard' | 'addressStreet'>;

/** The user columns a profile shows. */
export type ProfileSource = Pick<User, 'publicId' | 'email' | 'name' | 'phone' | 'role' | 'emailVerifiedAt' | 'phoneVerifiedAt' | 'createdAt'> & AddressColumns;

export function toProfile(user: ProfileSource, hasPassword: boolean): Profile {
  return {
    publicId: user.publicId,
    email: user.email,
    name: user.name,
    phone: user.phone,
    role: user.role,
    emailVerified: user.emailVerifiedAt !== null,
    phoneVerified: user.phoneVerifiedAt !== null,
    hasPassword,
    address: toProfileAddress(user),
    createdAt: user.createdAt.toISOString(),
  };
}

/** The three ids are written together (repository `addressColumns`), so one of them tells whether there is an address. */
function toProfileAddress(columns: AddressColumns): ProfileAddress | null {
  const { addressProvinceId, addressDistrictId, addressMunicipalityId } = columns;
  if (addressProvinceId === null || addressDistrictId === null || addressMunicipalityId === null) return null;
  return {
    provinceId: addressProvinceId,
    districtId: addressDistrictId,
    municipalityId: addressMunicipalityId,
    ward: columns.addressWard,
    street: columns.addressStreet,
  };
}

/** The address columns as a raw `users` row (the login lookup reads it in SQL) names them. */
export interface AddressRow {
  address_province_id: number | null;
  address_district_id: number | null;
  address_municipality_id: number | null;
  address_ward: number | null;
  address_street: string | null;
}

export function addressColumnsOf(row: AddressRow): AddressColumns {
  return {
    addressProvinceId: row.address_province_id,
    addressDistrictId: row.address_district_id,
    addressMunicipalityId: row.address_municipality_id,
    addressWard: row.address_ward,
    addressStreet: row.address_street,
  };
}
