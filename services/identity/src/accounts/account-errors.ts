import { AppError } from '@school/http';
import { violatedLiveUnique } from './users.repository.js';

export const emailTaken = () => new AppError('USER_EMAIL_TAKEN');
export const phoneTaken = () => new AppError('USER_PHONE_TAKEN');
export const userNotFound = () => new AppError('USER_NOT_FOUND');

/** Runs a write of a live account: a lost race on a live-account unique index is answered as the pre-check would have. */
export async function answeringLostRaces<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (caught) {
    const field = violatedLiveUnique(caught);
    throw field === 'email' ? emailTaken() : field === 'phone' ? phoneTaken() : caught;
  }
}
