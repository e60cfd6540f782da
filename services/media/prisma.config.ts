// Prisma CLI configuration of media (schema `media`, as SERVICES in @school/config names it).
import { servicePrismaConfig } from '@school/prisma/cli-config';

export default servicePrismaConfig('media');
