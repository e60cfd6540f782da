import { z } from 'zod';
import { emailAddress } from '@school/http';
import { strongPassword } from '../passwords/password-policy.js';

/**
 * Contract §1: the `admin` account created at start-up when no live admin exists. The dev defaults
 * are public: a deployment sets its own (the password must satisfy the strong-password rule).
 */
export const bootstrapEnv = {
  BOOTSTRAP_ADMIN_EMAIL: emailAddress.default('admin@example.com'),
  BOOTSTRAP_ADMIN_PASSWORD: strongPassword.default('Admin123!'),
};

export type BootstrapConfig = z.infer<z.ZodObject<typeof bootstrapEnv>>;
