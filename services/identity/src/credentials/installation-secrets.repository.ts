import { Injectable } from '@nestjs/common';
import { PrismaClient } from '../generated/prisma/client.js';

/** The installation_secrets table: one value per name, written once. */
@Injectable()
export class InstallationSecretsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The secret kept under `name`, created from `generate()` if none is (the first writer wins a race). */
  async keep(name: string, generate: () => string): Promise<string> {
    await this.prisma.installationSecret.createMany({ data: [{ name, value: generate() }], skipDuplicates: true });
    return (await this.prisma.installationSecret.findUniqueOrThrow({ where: { name } })).value;
  }
}
