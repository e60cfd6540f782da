// Prisma CLI configuration of feedback (schema `feedback`, as SERVICES in @school/config names it).
import { servicePrismaConfig } from '@school/prisma/cli-config';

export default servicePrismaConfig('feedback');
