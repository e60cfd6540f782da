import { AppError } from '@school/http';
import type { Transaction } from '@school/service';
import { type AccountControl, type ControlledAccount, removesActiveAdmin } from './account-rules.js';
import type { AdminsRepository } from './admins.repository.js';

/**
 * Under the active-admins lock (AdminsRepository.lockActiveAdmins): the target may stop being an
 * active admin only if another one remains (409 USER_LAST_ADMIN).
 */
export async function refuseLeavingNoActiveAdmin(admins: AdminsRepository, target: ControlledAccount, control: AccountControl, tx: Transaction): Promise<void> {
  if (removesActiveAdmin(target, control) && (await admins.countActiveAdmins(tx)) <= 1) throw new AppError('USER_LAST_ADMIN');
}
