import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError, type ErrorCode, pageInfo, type PageInfo, pageWindow } from '@school/http';
import { auditChanges, AuditRecorder, type Snapshot } from '@school/messaging';
import { uuidv7 } from '@school/prisma';
import { type Transaction, UnitOfWork } from '@school/service';
import type {
  CreateDistrictBody,
  CreateMunicipalityBody,
  CreateProvinceBody,
  DistrictDto,
  ListDistrictsQuery,
  ListMunicipalitiesQuery,
  ListProvincesQuery,
  MunicipalityDto,
  ProvinceDto,
  UpdateDistrictBody,
  UpdateMunicipalityBody,
  UpdateProvinceBody,
} from '@school/contracts';
import { districtDto, municipalityDto, provinceDto } from './geography.dto.js';
import type { GeographyLevel } from './geography-level.js';
import { GeographyReferences } from './geography-references.js';
import { GeographyRepository, type WriteRefusal } from './geography.repository.js';
import type { ListCache } from '../list-cache/list-cache.js';
import { ListCaches } from '../list-cache/list-cache.module.js';

const NOT_FOUND: Record<GeographyLevel, ErrorCode> = {
  province: 'PROVINCE_NOT_FOUND',
  district: 'DISTRICT_NOT_FOUND',
  municipality: 'MUNICIPALITY_NOT_FOUND',
};

/** The fields of a row an administrator sets, as an audit entry shows their change (contract §13); a level has some of them. */
const AUDITED_FIELDS = ['name', 'nameNp', 'code', 'isActive', 'provinceId', 'districtId', 'type', 'wardCount'] as const;

/** The level a row's parent id points at (spec §4.7 rule 3). */
const PARENT: Partial<Record<GeographyLevel, GeographyLevel>> = { district: 'province', municipality: 'district' };

interface Addressed {
  id: number;
  publicId: string;
  name: string;
  parentId?: number;
}

/** What a PATCH asks of a row's place: a new name and/or a new parent. */
interface Move {
  name?: string | undefined;
  parentId?: number | undefined;
}

function written<Row>(level: GeographyLevel, result: Row | WriteRefusal): Row {
  if (result === 'name_taken') throw new AppError('GEOGRAPHY_NAME_TAKEN');
  if (result === 'parent_missing') throw new AppError(NOT_FOUND[PARENT[level] ?? level]);
  return result;
}

/**
 * The geography rules of spec §3.3 and §4.7, the same for the three levels. The province and
 * district lists are read through a ListCache; every successful write, and every start (the
 * migrations seed rows), clears it for every replica. Every successful write is audited in its
 * transaction (contract §13).
 */
@Injectable()
export class GeographyService implements OnModuleInit {
  private readonly cache: ListCache;

  constructor(
    private readonly repository: GeographyRepository,
    private readonly references: GeographyReferences,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
    caches: ListCaches,
  ) {
    this.cache = caches.named('geography');
  }

  async onModuleInit(): Promise<void> {
    await this.cache.invalidate();
  }

  // Provinces

  async listProvinces(query: ListProvincesQuery): Promise<ProvinceDto[]> {
    const filter = { level: 'province', includeInactive: query.includeInactive };
    return this.cache.read(filter, async () => (await this.repository.listProvinces(filter)).map(provinceDto));
  }

  async createProvince(body: CreateProvinceBody): Promise<ProvinceDto> {
    return provinceDto(await this.created('province', (tx) => this.repository.createProvince({ publicId: uuidv7(), ...body }, tx), provinceDto));
  }

  async updateProvince(publicId: string, body: UpdateProvinceBody): Promise<ProvinceDto> {
    const row = await this.found('province', await this.repository.findProvince(publicId));
    const updated = await this.guardedUpdate('province', row, { name: body.name }, (tx) => this.repository.updateProvince(row.id, body, tx), {
      before: provinceDto(row),
      after: provinceDto,
    });
    return provinceDto(updated);
  }

  async deleteProvince(publicId: string): Promise<void> {
    const row = await this.found('province', await this.repository.findProvince(publicId));
    await this.guardedDelete('province', row, provinceDto(row));
  }

  // Districts

  async listDistricts(query: ListDistrictsQuery): Promise<DistrictDto[]> {
    const filter = { level: 'district', includeInactive: query.includeInactive, parentId: query.provinceId };
    return this.cache.read(filter, async () => (await this.repository.listDistricts(filter)).map(districtDto));
  }

  async createDistrict(body: CreateDistrictBody): Promise<DistrictDto> {
    await this.assertParentExists('district', body.provinceId);
    return districtDto(await this.created('district', (tx) => this.repository.createDistrict({ publicId: uuidv7(), ...body }, tx), districtDto));
  }

  async updateDistrict(publicId: string, body: UpdateDistrictBody): Promise<DistrictDto> {
    const row = await this.found('district', await this.repository.findDistrict(publicId));
    const move = { name: body.name, parentId: body.provinceId };
    const updated = await this.guardedUpdate('district', { ...row, parentId: row.provinceId }, move, (tx) => this.repository.updateDistrict(row.id, body, tx), {
      before: districtDto(row),
      after: districtDto,
    });
    return districtDto(updated);
  }

  async deleteDistrict(publicId: string): Promise<void> {
    const row = await this.found('district', await this.repository.findDistrict(publicId));
    await this.guardedDelete('district', row, districtDto(row));
  }

  // Municipalities

  async listMunicipalities(query: ListMunicipalitiesQuery): Promise<{ municipalities: MunicipalityDto[]; page: PageInfo }> {
    const paging = { ...query, order: 'asc' as const };
    const { rows, count } = await this.repository.listMunicipalities({ includeInactive: query.includeInactive, parentId: query.districtId }, pageWindow(paging));
    return { municipalities: rows.map(municipalityDto), page: pageInfo(paging, count) };
  }

  async createMunicipality(body: CreateMunicipalityBody): Promise<MunicipalityDto> {
    await this.assertParentExists('municipality', body.districtId);
    return municipalityDto(await this.created('municipality', (tx) => this.repository.createMunicipality({ publicId: uuidv7(), ...body }, tx), municipalityDto));
  }

  async updateMunicipality(publicId: string, body: UpdateMunicipalityBody): Promise<MunicipalityDto> {
    const row = await this.found('municipality', await this.repository.findMunicipality(publicId));
    const move = { name: body.name, parentId: body.districtId };
    const updated = await this.guardedUpdate('municipality', { ...row, parentId: row.districtId }, move, (tx) => this.repository.updateMunicipality(row.id, body, tx), {
      before: municipalityDto(row),
      after: municipalityDto,
    });
    return municipalityDto(updated);
  }

  async deleteMunicipality(publicId: string): Promise<void> {
    const row = await this.found('municipality', await this.repository.findMunicipality(publicId));
    await this.guardedDelete('municipality', row, municipalityDto(row));
  }

  // The rules every level shares

  private async found<Row>(level: GeographyLevel, row: Row | null): Promise<Row> {
    if (!row) throw new AppError(NOT_FOUND[level]);
    return row;
  }

  /** Spec §4.7 rule 3: creating or moving under a missing parent is the parent's 404. */
  private async assertParentExists(level: GeographyLevel, parentId: number): Promise<void> {
    const parent = PARENT[level];
    if (!parent) return;
    const row = parent === 'province' ? await this.repository.findProvinceById(parentId) : await this.repository.findDistrictById(parentId);
    if (!row) throw new AppError(NOT_FOUND[parent]);
  }

  /**
   * Spec §3.3 and §4.7 rules 4 and 6: a rename (a change of `name`, letter case included) or a
   * reparent of a referenced row is refused and changes nothing; every other field may change on
   * a referenced row (contract §6), retirement included.
   */
  private async guardedUpdate<Row>(
    level: GeographyLevel,
    row: Addressed,
    move: Move,
    write: (tx: Transaction) => Promise<Row | WriteRefusal>,
    audited: { before: Snapshot; after: (row: Row) => Snapshot },
  ): Promise<Row> {
    const moves = move.parentId !== undefined && move.parentId !== row.parentId;
    const renames = move.name !== undefined && move.name !== row.name;
    if (moves && move.parentId !== undefined) await this.assertParentExists(level, move.parentId);
    const updated = await this.unitOfWork.run(async (tx) => {
      if (!(await this.repository.lock(level, row.id, tx))) throw new AppError(NOT_FOUND[level]);
      if (renames || moves) await this.references.assertUnreferenced(level, row.id, 'GEOGRAPHY_RENAME_REFERENCED', tx);
      const after = written(level, await write(tx));
      await this.recordAudit(tx, level, 'update', row.publicId, auditChanges(audited.before, audited.after(after), AUDITED_FIELDS));
      return after;
    });
    return this.changed(updated);
  }

  /** A create in a transaction of its own with its audit entry. */
  private async created<Row extends { publicId: string }>(
    level: GeographyLevel,
    write: (tx: Transaction) => Promise<Row | WriteRefusal>,
    toAudited: (row: Row) => Snapshot,
  ): Promise<Row> {
    const row = await this.unitOfWork.run(async (tx) => {
      const inserted = written(level, await write(tx));
      await this.recordAudit(tx, level, 'create', inserted.publicId, auditChanges(undefined, toAudited(inserted), AUDITED_FIELDS));
      return inserted;
    });
    return this.changed(row);
  }

  private async recordAudit(
    tx: Transaction,
    level: GeographyLevel,
    verb: 'create' | 'update' | 'delete',
    publicId: string,
    changes: ReturnType<typeof auditChanges>,
  ): Promise<void> {
    await this.audit.record(tx, { action: `${level}.${verb}`, target: { type: level, id: publicId }, changes });
  }

  /** Spec §4.7 rule 5: only an unreferenced row is deleted. */
  private async guardedDelete(level: GeographyLevel, row: Addressed, before: Snapshot): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      if (!(await this.repository.lock(level, row.id, tx))) throw new AppError(NOT_FOUND[level]);
      await this.references.assertUnreferenced(level, row.id, 'GEOGRAPHY_IN_USE', tx);
      if (!(await this.repository.delete(level, row.id, tx))) throw new AppError('GEOGRAPHY_IN_USE');
      await this.recordAudit(tx, level, 'delete', row.publicId, auditChanges(before, undefined, AUDITED_FIELDS));
    });
    await this.changed(undefined);
  }

  /** After a write has committed: every replica's next list reads the database. */
  private async changed<T>(result: T): Promise<T> {
    await this.cache.invalidate();
    return result;
  }
}
