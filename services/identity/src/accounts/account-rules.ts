import type { Role } from '@school/auth';

/**
 * The account-control rules of contract §6, free of I/O: an admin cannot ban or delete their own
 * account, and no ban, delete or role change may leave the system without an active admin.
 */

/** What an account-control change does to its target. */
export interface AccountControl {
  banned?: boolean | undefined;
  role?: Role | undefined;
  deleted?: boolean | undefined;
}

/** The target's columns the rules read. */
export interface ControlledAccount {
  publicId: string;
  role: Role;
  banned: boolean;
}

/** An `admin` account neither banned nor deleted (deleted accounts are never loaded as targets). */
export function isActiveAdmin(account: Pick<ControlledAccount, 'role' | 'banned'>): boolean {
  return account.role === 'admin' && !account.banned;
}

/** Banning or deleting: the two controls an admin may not turn on themselves. */
export function isSelfAction(actorPublicId: string, targetPublicId: string, control: AccountControl): boolean {
  return (control.banned === true || control.deleted === true) && actorPublicId.toLowerCase() === targetPublicId.toLowerCase();
}

/** Whether the change may take an active admin away (a ban, a delete, a role other than admin), before the target is known. */
export function mayRemoveActiveAdmin(control: AccountControl): boolean {
  return control.banned === true || control.deleted === true || (control.role !== undefined && control.role !== 'admin');
}

/** Whether the change takes this account out of the active admins. */
export function removesActiveAdmin(account: Pick<ControlledAccount, 'role' | 'banned'>, control: AccountControl): boolean {
  return isActiveAdmin(account) && mayRemoveActiveAdmin(control);
}
