import { Injectable } from '@nestjs/common';
import { AppError } from '@school/http';
import { UsersRepository } from '../../accounts/users.repository.js';
import { TwoStepSignIn } from '../../mfa/two-step-sign-in.service.js';

/**
 * Contract §12 `DELETE /api/users/:publicId/mfa`: an administrator turns two-step sign-in off for an
 * account that lost its authenticator and recovery codes, ending its sessions. An unknown or
 * soft-deleted user is 404 USER_NOT_FOUND; an account without it 404 AUTH_MFA_NOT_ENABLED.
 */
@Injectable()
export class ResetMfa {
  constructor(
    private readonly users: UsersRepository,
    private readonly twoStep: TwoStepSignIn,
  ) {}

  async execute(publicId: string): Promise<void> {
    const user = await this.users.findLiveByPublicId(publicId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    await this.twoStep.reset(user);
  }
}
