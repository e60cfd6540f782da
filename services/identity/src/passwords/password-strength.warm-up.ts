import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { warmUpPasswordStrength } from './password-strength.js';
import type { PasswordsConfig } from './passwords.config.js';

/**
 * Builds the strength estimator while identity starts, before it listens (see password-strength.ts),
 * unless PASSWORD_STRENGTH_PRELOAD=false leaves it to the first new password checked.
 */
@Injectable()
export class PasswordStrengthWarmUp implements OnApplicationBootstrap {
  constructor(@Inject(APP_CONFIG) private readonly config: PasswordsConfig) {}

  onApplicationBootstrap(): void {
    if (this.config.PASSWORD_STRENGTH_PRELOAD) warmUpPasswordStrength();
  }
}
