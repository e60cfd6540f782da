import { SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { keysEnv } from './keys/keys.config.js';

export const identityEnv = serviceEnv(SERVICES.identity.port, { ...keysEnv });

export type IdentityConfig = z.infer<z.ZodObject<typeof identityEnv>>;
