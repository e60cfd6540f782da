// Prisma CLI configuration of identity (schema `identity`, as SERVICES in @school/config names it).
import { servicePrismaConfig } from '@school/prisma/cli-config';

export default servicePrismaConfig('identity');
