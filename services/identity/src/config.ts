import { SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const identityEnv = serviceEnv(SERVICES['identity'].port, {});

export type IdentityConfig = z.infer<z.ZodObject<typeof identityEnv>>;
