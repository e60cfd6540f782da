import { Injectable } from '@nestjs/common';
import { type FieldError, validationFailed } from '@school/http';
import type { GeographyCheckReason } from '@school/contracts';
import { auditChanges, AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import type { SchoolProfile } from '../generated/prisma/client.js';
import { GeographyCheck } from '../geography/geography-check.js';
import { GeographyRepository } from '../geography/geography.repository.js';
import type { PutSchoolProfileBody, SchoolProfileDto } from '@school/contracts';
import { SchoolProfileRepository } from './school-profile.repository.js';

const REASON_FIELD: Record<GeographyCheckReason, FieldError> = {
  province_not_found: { field: 'provinceId', message: 'no such province' },
  district_not_found: { field: 'districtId', message: 'no such district' },
  municipality_not_found: { field: 'municipalityId', message: 'no such municipality' },
  district_not_in_province: { field: 'districtId', message: 'is not a district of the province' },
  municipality_not_in_district: { field: 'municipalityId', message: 'is not a municipality of the district' },
};

/** The fields a PUT sets, as an audit entry shows their change (contract §13). */
const AUDITED_FIELDS = ['name', 'provinceId', 'districtId', 'municipalityId', 'ward', 'street', 'phone', 'email'] as const;

/** Contract §6 school profile as the API shows it. */
function toDto(row: SchoolProfile): SchoolProfileDto {
  const { name, provinceId, districtId, municipalityId, ward, street, phone, email, createdAt, updatedAt } = row;
  return { name, provinceId, districtId, municipalityId, ward, street, phone, email, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

@Injectable()
export class SchoolProfileService {
  constructor(
    private readonly repository: SchoolProfileRepository,
    private readonly geography: GeographyRepository,
    private readonly check: GeographyCheck,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
  ) {}

  /** Null until the first PUT: the school has not described itself yet. */
  async get(): Promise<SchoolProfileDto | null> {
    const row = await this.repository.find();
    return row && toDto(row);
  }

  /**
   * Replaces the profile. The three ids must exist and nest (else 400 VALIDATION_FAILED); they are
   * read under share locks, so no rename, move or delete of those rows interleaves with the write.
   */
  async put(body: PutSchoolProfileBody): Promise<SchoolProfileDto> {
    const row = await this.unitOfWork.run(async (tx) => {
      await this.geography.share('province', body.provinceId, tx);
      await this.geography.share('district', body.districtId, tx);
      await this.geography.share('municipality', body.municipalityId, tx);
      const verdict = await this.check.check(body, tx);
      if (!verdict.valid) throw validationFailed([REASON_FIELD[verdict.reason]]);
      const before = await this.repository.find(tx);
      const saved = await this.repository.save(
        {
          name: body.name,
          provinceId: body.provinceId,
          districtId: body.districtId,
          municipalityId: body.municipalityId,
          ward: body.ward ?? null,
          street: body.street ?? null,
          phone: body.phone ?? null,
          email: body.email ?? null,
        },
        tx,
      );
      const changes = auditChanges(before ? toDto(before) : {}, toDto(saved), AUDITED_FIELDS);
      await this.audit.record(tx, { action: 'school_profile.update', target: { type: 'school_profile', id: null }, changes });
      return saved;
    });
    return toDto(row);
  }
}
