import { amqpEnv, type ConfigRule, forwardingEnv, forwardingSecretRequiredInProduction, SERVICES, serviceEnv } from '@school/config';
import type { z } from 'zod';
import { auditEnv } from './audit/audit.config.js';
import { bootstrapEnv } from './bootstrap/bootstrap.config.js';
import { credentialsEnv, otpSecretRequiredInProduction } from './credentials/credentials.config.js';
import { keysEnv, publicKeysNeedPrivateKey, signingKeyRequiredInProduction } from './keys/keys.config.js';
import { loginBackoffEnv } from './login-backoff/login-backoff.config.js';
import { mfaEnv, mfaKeyRequiredInProduction } from './mfa/mfa.config.js';
import { passwordHashCostAtLeastOwaspInProduction, passwordsEnv } from './passwords/passwords.config.js';
import { retentionEnv } from './retention/retention.config.js';
import { sessionsEnv } from './sessions/sessions.config.js';

export const identityEnv = serviceEnv(SERVICES.identity.port, {
  ...amqpEnv,
  ...forwardingEnv,
  ...keysEnv,
  ...credentialsEnv,
  ...mfaEnv,
  ...passwordsEnv,
  ...loginBackoffEnv,
  ...sessionsEnv,
  ...retentionEnv,
  ...auditEnv,
  ...bootstrapEnv,
});

export type IdentityConfig = z.infer<z.ZodObject<typeof identityEnv>>;

/** Checked with the values at start-up: a production identity has its own signing key, OTP secret, MFA key and forwarding secret, and hashes passwords at least as hard as OWASP asks. */
export const identityConfigRules: readonly ConfigRule<IdentityConfig>[] = [
  signingKeyRequiredInProduction,
  publicKeysNeedPrivateKey,
  otpSecretRequiredInProduction,
  mfaKeyRequiredInProduction,
  forwardingSecretRequiredInProduction,
  passwordHashCostAtLeastOwaspInProduction,
];
