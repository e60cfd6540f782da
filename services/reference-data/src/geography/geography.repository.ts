import { Injectable } from '@nestjs/common';
import { isForeignKeyViolation, isUniqueViolation, uuidv7 } from '@school/prisma';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, PrismaClient, type District, type Municipality, type MunicipalityType, type Province } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/** The SQL unique indexes on lower(name) in scope (migration 20261123010000). */
export const NAME_INDEXES = {
  province: 'provinces_name_lower_key',
  district: 'districts_province_name_lower_key',
  municipality: 'municipalities_district_name_lower_key',
} as const;

export type DistrictRow = District & { province: { name: string } };
export type MunicipalityRow = Municipality & { district: { name: string } };

/** A write the database refused for a reason of the rules: a twin name in scope, or a parent gone. */
export type WriteRefusal = 'name_taken' | 'parent_missing';

export interface LabelFields {
  name?: string;
  nameNp?: string | null;
  code?: string | null;
  isActive?: boolean;
}

export interface ListFilter {
  includeInactive: boolean;
  parentId?: number | undefined;
}

const BY_NAME = [{ name: 'asc' }, { id: 'asc' }] as const satisfies Prisma.ProvinceOrderByWithRelationInput[];
const WITH_PROVINCE = { province: { select: { name: true } } } as const satisfies Prisma.DistrictInclude;
const WITH_DISTRICT = { district: { select: { name: true } } } as const satisfies Prisma.MunicipalityInclude;
const LOCKABLE = { province: 'provinces', district: 'districts', municipality: 'municipalities' } as const;
const PROFILE_COLUMN = { province: 'province_id', district: 'district_id', municipality: 'municipality_id' } as const;

/** A table of this service's schema, as raw SQL names it. */
function table(schema: string, name: string): Prisma.Sql {
  return Prisma.raw(`${schema}."${name}"`);
}

async function refusing<T>(level: keyof typeof NAME_INDEXES, write: () => Promise<T>): Promise<T | WriteRefusal> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, NAME_INDEXES[level])) return 'name_taken';
    if (isForeignKeyViolation(error)) return 'parent_missing';
    throw error;
  }
}

/**
 * Provinces, districts and municipalities: the only place that touches their tables, and the
 * address claims. It also reads (never writes) the school profile's geography columns and the
 * users' geography usages, because a profile or an address naming a row is a reference of spec §3.3.
 */
@Injectable()
export class GeographyRepository {
  private readonly schema: string;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.schema = schema.sql;
  }

  // Provinces

  findProvince(publicId: string, tx?: Transaction): Promise<Province | null> {
    return this.db(tx).province.findUnique({ where: { publicId } });
  }

  findProvinceById(id: number, tx?: Transaction): Promise<Province | null> {
    return this.db(tx).province.findUnique({ where: { id } });
  }

  listProvinces(filter: ListFilter): Promise<Province[]> {
    return this.db().province.findMany({ where: filter.includeInactive ? {} : { isActive: true }, orderBy: BY_NAME });
  }

  createProvince(data: LabelFields & { publicId: string; name: string }, tx?: Transaction): Promise<Province | WriteRefusal> {
    return refusing('province', () => this.db(tx).province.create({ data }));
  }

  updateProvince(id: number, changes: LabelFields, tx: Transaction): Promise<Province | WriteRefusal> {
    return refusing('province', () => this.db(tx).province.update({ where: { id }, data: changes }));
  }

  // Districts

  findDistrict(publicId: string, tx?: Transaction): Promise<DistrictRow | null> {
    return this.db(tx).district.findUnique({ where: { publicId }, include: WITH_PROVINCE });
  }

  findDistrictById(id: number, tx?: Transaction): Promise<District | null> {
    return this.db(tx).district.findUnique({ where: { id } });
  }

  listDistricts(filter: ListFilter): Promise<DistrictRow[]> {
    return this.db().district.findMany({
      where: { ...(filter.includeInactive ? {} : { isActive: true }), ...(filter.parentId !== undefined && { provinceId: filter.parentId }) },
      include: WITH_PROVINCE,
      orderBy: BY_NAME,
    });
  }

  createDistrict(data: LabelFields & { publicId: string; name: string; provinceId: number }, tx?: Transaction): Promise<DistrictRow | WriteRefusal> {
    return refusing('district', () => this.db(tx).district.create({ data, include: WITH_PROVINCE }));
  }

  updateDistrict(id: number, changes: LabelFields & { provinceId?: number }, tx: Transaction): Promise<DistrictRow | WriteRefusal> {
    return refusing('district', () => this.db(tx).district.update({ where: { id }, data: changes, include: WITH_PROVINCE }));
  }

  // Municipalities

  findMunicipality(publicId: string, tx?: Transaction): Promise<MunicipalityRow | null> {
    return this.db(tx).municipality.findUnique({ where: { publicId }, include: WITH_DISTRICT });
  }

  findMunicipalityById(id: number, tx?: Transaction): Promise<Municipality | null> {
    return this.db(tx).municipality.findUnique({ where: { id } });
  }

  async listMunicipalities(filter: ListFilter, window: { skip: number; take: number }): Promise<{ rows: MunicipalityRow[]; count: number }> {
    const where = { ...(filter.includeInactive ? {} : { isActive: true }), ...(filter.parentId !== undefined && { districtId: filter.parentId }) };
    const [rows, count] = await Promise.all([
      this.db().municipality.findMany({ where, include: WITH_DISTRICT, orderBy: BY_NAME, ...window }),
      this.db().municipality.count({ where }),
    ]);
    return { rows, count };
  }

  createMunicipality(
    data: LabelFields & { publicId: string; name: string; districtId: number; type: MunicipalityType; wardCount?: number | null },
    tx?: Transaction,
  ): Promise<MunicipalityRow | WriteRefusal> {
    return refusing('municipality', () => this.db(tx).municipality.create({ data, include: WITH_DISTRICT }));
  }

  updateMunicipality(
    id: number,
    changes: LabelFields & { districtId?: number; type?: MunicipalityType; wardCount?: number | null },
    tx: Transaction,
  ): Promise<MunicipalityRow | WriteRefusal> {
    return refusing('municipality', () => this.db(tx).municipality.update({ where: { id }, data: changes, include: WITH_DISTRICT }));
  }

  // Every level

  /**
   * Locks the row until the transaction ends (false: it is gone). FOR UPDATE conflicts with the key-share lock a
   * foreign key check takes, so no child row or school profile can start naming it meanwhile.
   */
  async lock(level: keyof typeof LOCKABLE, id: number, tx: Transaction): Promise<boolean> {
    const rows = await this.db(tx).$queryRaw<unknown[]>`SELECT id FROM ${table(this.schema, LOCKABLE[level])} WHERE id = ${id} FOR UPDATE`;
    return rows.length > 0;
  }

  /** Locks rows against change while a reader relies on them (the school profile's nesting check). */
  async share(level: keyof typeof LOCKABLE, id: number, tx: Transaction): Promise<void> {
    await this.db(tx).$queryRaw`SELECT id FROM ${table(this.schema, LOCKABLE[level])} WHERE id = ${id} FOR SHARE`;
  }

  /**
   * A row of the level below, the school profile, a user's committed address or a live address
   * claim names this row (spec §4.7 rules 5-6, contract §9). Usages and claims are read in one
   * statement, one snapshot: an event that turns a claim into a usage commits both at once.
   */
  async hasLocalReferences(level: keyof typeof LOCKABLE, id: number, tx?: Transaction): Promise<boolean> {
    const db = this.db(tx);
    const child =
      level === 'province'
        ? await db.district.findFirst({ where: { provinceId: id }, select: { id: true } })
        : level === 'district'
          ? await db.municipality.findFirst({ where: { districtId: id }, select: { id: true } })
          : null;
    if (child) return true;
    const column = Prisma.raw(`"${PROFILE_COLUMN[level]}"`);
    const [{ used }] = await db.$queryRaw<[{ used: boolean }]>`
      SELECT EXISTS (SELECT 1 FROM ${table(this.schema, 'school_profile')} WHERE ${column} = ${id})
          OR EXISTS (SELECT 1 FROM ${table(this.schema, 'geography_usages')} WHERE ${column} = ${id})
          OR EXISTS (SELECT 1 FROM ${table(this.schema, 'address_claims')} WHERE ${column} = ${id} AND expires_at > now()) AS used`;
    return used;
  }

  /** Holds a valid address triple for `seconds` under a new claim id (see AddressClaim), and forgets claims long expired. */
  async claimAddress(triple: { provinceId: number; districtId: number; municipalityId: number }, seconds: number, tx: Transaction): Promise<string> {
    const db = this.db(tx);
    const claimId = uuidv7();
    const claims = table(this.schema, 'address_claims');
    // The database's clock, the one hasLocalReferences compares expires_at with.
    await db.$executeRaw`DELETE FROM ${claims} WHERE expires_at < now() - interval '1 hour'`;
    await db.$executeRaw`
      INSERT INTO ${claims} (id, province_id, district_id, municipality_id, expires_at)
      VALUES (${claimId}::uuid, ${triple.provinceId}, ${triple.districtId}, ${triple.municipalityId}, now() + make_interval(secs => ${seconds}))`;
    return claimId;
  }

  /** Forgets a claim: the write it held the rows for committed (its usage replaces it) or was rolled back. False when there was none. */
  async releaseClaim(claimId: string, tx?: Transaction): Promise<boolean> {
    const { count } = await this.db(tx).addressClaim.deleteMany({ where: { id: claimId } });
    return count > 0;
  }

  /** Deletes the row; false when a foreign key still names it (a reference that came meanwhile). */
  async delete(level: keyof typeof LOCKABLE, id: number, tx: Transaction): Promise<boolean> {
    try {
      const db = this.db(tx);
      if (level === 'province') await db.province.delete({ where: { id } });
      else if (level === 'district') await db.district.delete({ where: { id } });
      else await db.municipality.delete({ where: { id } });
      return true;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  private db(tx?: Transaction): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}
