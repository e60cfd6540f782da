import { Module } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { defaultMaxWaiting, hashingConcurrency, PasswordHasher } from './password-hasher.js';
import { PasswordStrengthWarmUp } from './password-strength.warm-up.js';
import { hashCostOf, type PasswordsConfig } from './passwords.config.js';

/** One hasher per process: its queue bounds the argon2id work of every route that hashes or verifies. */
function hasherOf(config: PasswordsConfig): PasswordHasher {
  const concurrency = hashingConcurrency();
  return new PasswordHasher({ concurrency, maxWaiting: config.PASSWORD_HASH_MAX_WAITING ?? defaultMaxWaiting(concurrency), cost: hashCostOf(config) });
}

@Module({
  providers: [{ provide: PasswordHasher, useFactory: hasherOf, inject: [APP_CONFIG] }, PasswordStrengthWarmUp],
  exports: [PasswordHasher],
})
export class PasswordsModule {}
