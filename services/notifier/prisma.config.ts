// Prisma CLI configuration of notifier (schema `notifier`, as SERVICES in @school/config names it).
import { servicePrismaConfig } from '@school/prisma/cli-config';

export default servicePrismaConfig('notifier');
