import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import type { User } from '../../generated/prisma/client.js';
import { UsersRepository, violatedLiveUnique } from '../../accounts/users.repository.js';
import { CredentialsService } from '../credentials.service.js';

/**
 * Phone verification of the signed-in account: a six-digit code by SMS (OTP_TTL_MINUTES, five
 * attempts), which, confirmed, makes the number the account's verified phone. A number another
 * live account holds is refused on request and on confirm (409 USER_PHONE_TAKEN): phones are unique
 * among live accounts, and the partial unique index settles a race the checks cannot see.
 */
@Injectable()
export class PhoneVerificationService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** A new code for `phone`, replacing the caller's earlier one, and its SMS; within contract §9's limits (429 beyond). */
  async request(principal: Principal, phone: string): Promise<void> {
    const user = await this.callerOf(principal);
    await this.refuseHeldByAnother(user, phone);
    await this.unitOfWork.run(async (tx) => {
      const issued = await this.credentials.issuePhoneCode(tx, user, phone, this.credentials.prepare({ token: false, otp: true }));
      await this.outbox.record(tx, EVENT_TYPES.phoneVerificationRequested, {
        userId: user.publicId,
        phone,
        otp: issued.otp!,
        expiresAt: issued.expiresAt.toISOString(),
      });
    });
  }

  /** The code must be the caller's live one and sent to this phone; anything else counts an attempt. */
  async confirm(principal: Principal, phone: string, otp: string): Promise<void> {
    const user = await this.callerOf(principal);
    await this.refuseHeldByAnother(user, phone);
    let done: boolean;
    try {
      done = await this.credentials.redeemByOtp(
        user.id,
        otp,
        'phoneByOtp',
        async ({ tx, user: holder, now }) => {
          await this.users.update(holder.id, { phone, phoneVerifiedAt: now }, tx);
        },
        phone,
      );
    } catch (error) {
      // Another account took the number since the check: the redemption rolled back with it.
      if (violatedLiveUnique(error) === 'phone') throw new AppError('USER_PHONE_TAKEN');
      throw error;
    }
    if (!done) throw new AppError('AUTH_VERIFICATION_CODE_INVALID');
  }

  private async refuseHeldByAnother(caller: User, phone: string): Promise<void> {
    const holder = await this.users.findLiveByPhone(phone);
    if (holder && holder.id !== caller.id) throw new AppError('USER_PHONE_TAKEN');
  }

  /** The token was verified and its session is not revoked; an account deleted since is unauthenticated. */
  private async callerOf(principal: Principal): Promise<User> {
    const user = await this.users.findLiveByPublicId(principal.userId);
    if (!user) throw new AppError('AUTH_UNAUTHENTICATED');
    return user;
  }
}
