import { Injectable } from '@nestjs/common';
import { PrismaClient } from '../generated/prisma/client.js';

/** The only place that touches installation_secrets: each secret is stored once, by whoever comes first. */
@Injectable()
export class InstallationSecretsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The value kept under `name`, `candidate` stored first when there is none (replicas starting together agree on one). */
  async keepFirst(name: string, candidate: string): Promise<string> {
    await this.prisma.installationSecret.createMany({ data: [{ name, value: candidate }], skipDuplicates: true });
    const { value } = await this.prisma.installationSecret.findUniqueOrThrow({ where: { name }, select: { value: true } });
    return value;
  }
}
