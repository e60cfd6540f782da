import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createDistrictBody,
  createMunicipalityBody,
  createProvinceBody,
  type ErrorCode,
  type EventPayload,
  updateDistrictBody,
  updateMunicipalityBody,
  updateProvinceBody,
} from '@school/contracts';
import { Inbox } from '@school/messaging';
import { uuidv7 } from '@school/prisma';
import { DatabaseSchema, UnitOfWork } from '@school/service';
import { AddressUsagesRepository } from '../../src/address-usages/address-usages.repository.js';
import { AddressUsagesService } from '../../src/address-usages/address-usages.service.js';
import { GeographyCheck } from '../../src/geography/geography-check.js';
import { GeographyReferences } from '../../src/geography/geography-references.js';
import { GeographyRepository } from '../../src/geography/geography.repository.js';
import { GeographyService } from '../../src/geography/geography.service.js';
import { referenceDataMedium, type ReferenceDataMedium } from './kit.js';

type AddressChange = EventPayload<'identity.user_address_changed'>;

/**
 * The rules of geography (spec §3.3, §4.7 rules 2-6; contract §9) against the use cases: names in
 * scope, references (children, users' addresses as identity's events record them, live claims of
 * GEOGRAPHY_CHECK). Their wire (routes, RPC, the event consumer) is geography.test.ts and address-usages.test.ts.
 */
describe('geography: the use cases over their repositories (medium)', () => {
  let world: ReferenceDataMedium;
  let geography: GeographyService;
  let check: GeographyCheck;
  let usages: AddressUsagesService;
  let suffix = 0;
  const unique = (label: string) => `${label} ${++suffix}`;

  beforeAll(async () => {
    world = await referenceDataMedium('rd_geography_medium', [
      GeographyRepository,
      GeographyReferences,
      GeographyService,
      GeographyCheck,
      AddressUsagesRepository,
      AddressUsagesService,
      { provide: Inbox, useFactory: (schema: DatabaseSchema, unitOfWork: UnitOfWork) => new Inbox(schema.name, unitOfWork), inject: [DatabaseSchema, UnitOfWork] },
    ]);
    geography = world.get(GeographyService);
    check = world.get(GeographyCheck);
    usages = world.get(AddressUsagesService);
  });

  afterAll(() => world?.close());

  const refused = (work: Promise<unknown>, code: ErrorCode) => expect(work).rejects.toMatchObject({ name: 'AppError', code });
  const province = (name = unique('Province')) => geography.createProvince(createProvinceBody.parse({ name }));
  const district = (provinceId: number, name = unique('District')) => geography.createDistrict(createDistrictBody.parse({ provinceId, name }));
  const municipality = (districtId: number, name = unique('Municipality')) =>
    geography.createMunicipality(createMunicipalityBody.parse({ districtId, name, type: 'municipality', wardCount: 9 }));
  const updateProvince = (publicId: string, body: object) => geography.updateProvince(publicId, updateProvinceBody.parse(body));
  const updateDistrict = (publicId: string, body: object) => geography.updateDistrict(publicId, updateDistrictBody.parse(body));
  const updateMunicipality = (publicId: string, body: object) => geography.updateMunicipality(publicId, updateMunicipalityBody.parse(body));
  async function chain() {
    const p = await province();
    const d = await district(p.id);
    const m = await municipality(d.id);
    return { p, d, m, address: { provinceId: p.id, districtId: d.id, municipalityId: m.id } };
  }
  const rename = (publicId: string) => updateMunicipality(publicId, { name: unique('Renamed') });
  /** What the consumer does with one of identity's address events (its transport and decoding are address-usages.test.ts). */
  const delivered = async (change: AddressChange, messageId = uuidv7()) => {
    await usages.handle(change, messageId);
    return messageId;
  };
  const usageOf = (userId: string) => world.prisma.geographyUsage.findUnique({ where: { userId } });
  async function claimed(address: { provinceId: number; districtId: number; municipalityId: number }): Promise<string> {
    const verdict = await check.answer(address);
    if (!verdict.valid) throw new Error(`the chain should be a valid address: ${verdict.reason}`);
    return verdict.claimId;
  }

  describe('names unique case-insensitively in scope (spec §4.7 rule 2)', () => {
    it('refuses a twin in scope on create and on rename or move, and allows the name elsewhere', async () => {
      const p = await province('Twin Province');
      await refused(province('twin PROVINCE'), 'GEOGRAPHY_NAME_TAKEN');
      const other = await province();
      await refused(updateProvince(other.publicId, { name: 'TWIN province' }), 'GEOGRAPHY_NAME_TAKEN');

      await district(p.id, 'Twin District');
      await refused(district(p.id, 'twin district'), 'GEOGRAPHY_NAME_TAKEN');
      const elsewhere = await district(other.id, 'TWIN DISTRICT');
      await refused(updateDistrict(elsewhere.publicId, { provinceId: p.id }), 'GEOGRAPHY_NAME_TAKEN');

      const d1 = await district(other.id);
      const d2 = await district(other.id);
      await municipality(d1.id, 'Twin Town');
      await refused(municipality(d1.id, 'twin town'), 'GEOGRAPHY_NAME_TAKEN');
      const m2 = await municipality(d2.id, 'Twin town');
      await refused(updateMunicipality(m2.publicId, { districtId: d1.id }), 'GEOGRAPHY_NAME_TAKEN');
      expect((await world.prisma.municipality.findUnique({ where: { id: m2.id } }))?.districtId).toBe(d2.id);
    });

    it('lets the unique index decide a race: of parallel creates of one name one succeeds, the rest are refused', async () => {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => province('Racing Province')));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'GEOGRAPHY_NAME_TAKEN' });
    });
  });

  describe('children (table §3.3, rules 4.7/5-6)', () => {
    it('a province with a district: rename and delete refused, other fields and retirement allowed', async () => {
      const { p } = await chain();
      await refused(updateProvince(p.publicId, { name: 'Renamed' }), 'GEOGRAPHY_RENAME_REFERENCED');
      await refused(updateProvince(p.publicId, { name: p.name.toUpperCase(), code: 'ZZ' }), 'GEOGRAPHY_RENAME_REFERENCED');
      await refused(geography.deleteProvince(p.publicId), 'GEOGRAPHY_IN_USE');
      expect(await world.prisma.province.findUnique({ where: { id: p.id } })).toMatchObject({ name: p.name, code: null });
      expect(await updateProvince(p.publicId, { name: p.name, nameNp: 'नयाँ', code: 'NEW', isActive: false })).toMatchObject({
        name: p.name,
        nameNp: 'नयाँ',
        code: 'NEW',
        isActive: false,
      });
      expect(await updateProvince(p.publicId, { isActive: true })).toMatchObject({ isActive: true });
    });

    it('a district with a municipality cannot be moved, renamed or deleted', async () => {
      const { d } = await chain();
      const target = await province();
      await refused(updateDistrict(d.publicId, { provinceId: target.id }), 'GEOGRAPHY_RENAME_REFERENCED');
      await refused(updateDistrict(d.publicId, { name: 'Renamed' }), 'GEOGRAPHY_RENAME_REFERENCED');
      await refused(geography.deleteDistrict(d.publicId), 'GEOGRAPHY_IN_USE');
      expect(await world.prisma.district.findUnique({ where: { id: d.id } })).toMatchObject({ provinceId: d.provinceId, name: d.name });
      expect(await updateDistrict(d.publicId, { nameNp: 'जिल्ला', isActive: false })).toMatchObject({ isActive: false });
    });

    it('an unreferenced row can be renamed and moved', async () => {
      const p = await province();
      const lone = await district(p.id);
      const target = await province();
      expect(await updateDistrict(lone.publicId, { provinceId: target.id, name: 'Moved district' })).toMatchObject({
        provinceId: target.id,
        provinceName: target.name,
        name: 'Moved district',
      });
    });
  });

  describe("users' addresses, from identity's events (contract §9)", () => {
    it('an address refuses delete and rename of its rows; its removal frees them', async () => {
      const { m, address } = await chain();
      const userId = randomUUID();
      await delivered({ userId, address, version: 1, claimId: null });
      expect(await usageOf(userId)).toMatchObject({ ...address, version: 1 });
      await refused(geography.deleteMunicipality(m.publicId), 'GEOGRAPHY_IN_USE');
      await refused(rename(m.publicId), 'GEOGRAPHY_RENAME_REFERENCED');

      await delivered({ userId, address: null, version: 2, claimId: null });
      expect(await usageOf(userId)).toMatchObject({ provinceId: null, districtId: null, municipalityId: null, version: 2 });
      await geography.deleteMunicipality(m.publicId);
    });

    it('an older version delivered late does not write its address back; a message id seen before changes nothing', async () => {
      const first = await chain();
      const second = await chain();
      const userId = randomUUID();
      await delivered({ userId, address: second.address, version: 2, claimId: null });
      const late = await delivered({ userId, address: first.address, version: 1, claimId: null });
      expect(await usageOf(userId)).toMatchObject({ ...second.address, version: 2 });
      await geography.deleteMunicipality(first.m.publicId);
      await refused(geography.deleteMunicipality(second.m.publicId), 'GEOGRAPHY_IN_USE');

      const moved = await chain();
      await delivered({ userId, address: moved.address, version: 3, claimId: null }, late);
      expect(await usageOf(userId)).toMatchObject({ ...second.address, version: 2 });
      await geography.deleteMunicipality(moved.m.publicId);
    });

    it('an erasure frees the rows its address alone used, and no address event delivered late writes it back', async () => {
      const { m, address } = await chain();
      const userId = randomUUID();
      await delivered({ userId, address, version: 4, claimId: null });
      await refused(geography.deleteMunicipality(m.publicId), 'GEOGRAPHY_IN_USE');

      const erasure = { version: 1, userId, erasedAt: new Date().toISOString(), emailDigest: 'a'.repeat(64) };
      const messageId = uuidv7();
      await usages.handleErased(erasure, messageId);
      await usages.handleErased(erasure, messageId);
      await delivered({ userId, address, version: 5, claimId: null });
      expect(await usageOf(userId)).toMatchObject({ provinceId: null, districtId: null, municipalityId: null });
      await geography.deleteMunicipality(m.publicId);
    });
  });

  describe('claims of GEOGRAPHY_CHECK (contract §9)', () => {
    it('answers an invalid triple without a claim', async () => {
      const { address } = await chain();
      const other = await chain();
      expect(await check.answer({ ...address, municipalityId: other.m.id })).toEqual({ valid: false, reason: 'municipality_not_in_district' });
      expect(await check.answer({ ...address, districtId: other.d.id })).toEqual({ valid: false, reason: 'district_not_in_province' });
      expect(await world.prisma.addressClaim.count({ where: { municipalityId: { in: [address.municipalityId, other.m.id] } } })).toBe(0);
    });

    it('a claim refuses the delete; the event naming it replaces it with the usage, and then the address alone decides', async () => {
      const { m, address } = await chain();
      const other = await chain();
      const claimId = await claimed(address);
      await refused(geography.deleteMunicipality(m.publicId), 'GEOGRAPHY_IN_USE');

      const userId = randomUUID();
      await delivered({ userId, address, version: 1, claimId });
      expect(await world.prisma.addressClaim.findUnique({ where: { id: claimId } })).toBeNull();
      await refused(geography.deleteMunicipality(m.publicId), 'GEOGRAPHY_IN_USE');

      await delivered({ userId, address: other.address, version: 2, claimId: null });
      await geography.deleteMunicipality(m.publicId);
    });

    it('a claim no event confirms holds until it expires', async () => {
      const { m, address } = await chain();
      const claimId = await claimed(address);
      await refused(rename(m.publicId), 'GEOGRAPHY_RENAME_REFERENCED');
      await world.prisma.addressClaim.update({ where: { id: claimId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
      await rename(m.publicId);
      await geography.deleteMunicipality(m.publicId);
    });

    it('a claim released (the write that relied on it was refused) frees the rows at once, once', async () => {
      const { m, address } = await chain();
      const claimId = await claimed(address);
      await refused(geography.deleteMunicipality(m.publicId), 'GEOGRAPHY_IN_USE');
      expect(await check.release({ claimId })).toEqual({ released: true });
      expect(await check.release({ claimId })).toEqual({ released: false });
      await geography.deleteMunicipality(m.publicId);
    });
  });
});
