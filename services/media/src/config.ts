import { SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';

export const mediaEnv = serviceEnv(SERVICES['media'].port, {});

export type MediaConfig = z.infer<z.ZodObject<typeof mediaEnv>>;
