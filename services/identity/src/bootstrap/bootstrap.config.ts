import { ConfigError } from '@school/config';
import { z } from 'zod';
import { emailAddress } from '@school/http';
import { strongPassword } from '@school/contracts';
import { newPassword } from '../passwords/password-policy.js';

/**
 * Contract §1: the `admin` account created at start-up when no live admin exists. The dev defaults
 * are public: a deployment sets its own (the password must satisfy the strong-password rule).
 */
export const DEV_BOOTSTRAP_ADMIN_PASSWORD = 'Admin123!';

export const bootstrapEnv = {
  BOOTSTRAP_ADMIN_EMAIL: emailAddress.default('admin@example.com'),
  BOOTSTRAP_ADMIN_PASSWORD: strongPassword.default(DEV_BOOTSTRAP_ADMIN_PASSWORD),
};

export type BootstrapConfig = z.infer<z.ZodObject<typeof bootstrapEnv>> & { NODE_ENV: string };

/**
 * Contract §9: a production identity that would create the bootstrap admin refuses to start with the
 * public development password (unset means that default), or one that a person could not choose
 * either (breached, or too easy to guess), in one line naming the variable.
 */
export function refuseWeakPasswordInProduction(config: BootstrapConfig): void {
  if (config.NODE_ENV !== 'production') return;
  const reason =
    config.BOOTSTRAP_ADMIN_PASSWORD === DEV_BOOTSTRAP_ADMIN_PASSWORD
      ? 'must be set to a password of your own in production'
      : newPassword.safeParse(config.BOOTSTRAP_ADMIN_PASSWORD).error?.issues[0]?.message;
  if (reason !== undefined) {
    throw new ConfigError(`Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: ${reason} (no admin exists, so one would be created with it)`);
  }
}
