// Prisma CLI configuration of reference-data (schema `reference_data`, as SERVICES in @school/config names it).
import { servicePrismaConfig } from '@school/prisma/cli-config';

export default servicePrismaConfig('reference_data');
