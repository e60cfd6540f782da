import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { type Prisma, PrismaClient, type SchoolProfile } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/** The one row of the school profile (`id` 1, a CHECK of the migration). */
const THE_PROFILE = 1;

export interface SchoolProfileFields {
  name: string;
  provinceId: number;
  districtId: number;
  municipalityId: number;
  ward: number | null;
  street: string | null;
  phone: string | null;
  email: string | null;
}

/** The only place that touches the school_profile table (geography only reads its ids as references). */
@Injectable()
export class SchoolProfileRepository {
  constructor(private readonly prisma: PrismaClient) {}

  find(tx?: Transaction): Promise<SchoolProfile | null> {
    return this.db(tx).schoolProfile.findUnique({ where: { id: THE_PROFILE } });
  }

  save(fields: SchoolProfileFields, tx: Transaction): Promise<SchoolProfile> {
    return this.db(tx).schoolProfile.upsert({ where: { id: THE_PROFILE }, create: { id: THE_PROFILE, ...fields }, update: fields });
  }

  private db(tx?: Transaction): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}
