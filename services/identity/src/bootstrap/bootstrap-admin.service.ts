import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, UnitOfWork } from '@school/service';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { ProviderAccountsRepository } from '../accounts/provider-accounts.repository.js';
import { AdminsRepository } from '../accounts/admins.repository.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { AccountCreator } from '../accounts/account-creator.js';
import { type BootstrapConfig, refuseWeakPasswordInProduction } from './bootstrap.config.js';

export const BOOTSTRAP_ADMIN_NAME = 'Administrator';

/** Contract §1: at start-up, before identity listens, an `admin` account exists. */
@Injectable()
export class BootstrapAdminService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapAdminService.name);
  private readonly creator: AccountCreator;

  constructor(
    users: UsersRepository,
    private readonly admins: AdminsRepository,
    providerAccounts: ProviderAccountsRepository,
    hasher: PasswordHasher,
    unitOfWork: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: BootstrapConfig,
  ) {
    this.creator = new AccountCreator(users, this.admins, providerAccounts, hasher, unitOfWork);
  }

  async onApplicationBootstrap(): Promise<void> {
    const email = this.config.BOOTSTRAP_ADMIN_EMAIL;
    if (!(await this.admins.existsLiveAdmin())) refuseWeakPasswordInProduction(this.config);
    const result = await this.creator.ensureAdmin({ email, name: BOOTSTRAP_ADMIN_NAME, password: this.config.BOOTSTRAP_ADMIN_PASSWORD });
    if (result.outcome === 'created') {
      this.logger.log({ publicId: result.user.publicId }, `Bootstrap admin ${email} created`);
    } else if (result.outcome === 'email-taken') {
      this.logger.warn(`No admin exists and BOOTSTRAP_ADMIN_EMAIL ${email} belongs to another account: no bootstrap admin created`);
    }
  }
}
