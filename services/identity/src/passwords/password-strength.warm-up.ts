import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { warmUpPasswordStrength } from './password-strength.js';

/** Loads the strength estimator's dictionaries while identity starts, before it listens (see password-strength.ts). */
@Injectable()
export class PasswordStrengthWarmUp implements OnApplicationBootstrap {
  onApplicationBootstrap(): void {
    warmUpPasswordStrength();
  }
}
