import { Injectable } from '@nestjs/common';
import type { Principal } from '@school/auth';
import type { AccountExportDto, OwnAccountExportDto } from '@school/contracts';
import { AppError, rateLimited } from '@school/http';
import { UnitOfWork } from '@school/service';
import { userNotFound } from '../accounts/account-errors.js';
import { profileOf } from '../accounts/profiles.js';
import { type UserAccount, UserDirectoryRepository } from '../accounts/user-directory.repository.js';
import type { SessionRecord } from '../sessions/sessions.repository.js';
import { toOwnSessionView, toSessionView } from '../sessions/session-view.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { AccountDataPeers } from './account-data-peers.js';
import { AccountExportsRepository } from './account-exports.repository.js';
import { exportWait, exportWindowStart } from './export-limit.js';

/** A copy before its sessions take the shape of the route that asked. */
type Copy = Omit<AccountExportDto, 'sessions'> & { sessions: SessionRecord[] };

/**
 * Contract §11, a person's copy of their data: the `me` profile, the stored address, the live
 * sessions, the feedback they sent signed in and the files stored now. Nothing of another person,
 * no password hash, token or secret. At most five copies of one account an hour over the three
 * routes, whoever asks (429 beyond); a copy that cannot be made whole (feedback or media gives no
 * answer in time) is 503 and does not count.
 */
@Injectable()
export class ExportAccount {
  constructor(
    private readonly directory: UserDirectoryRepository,
    private readonly sessions: SessionsService,
    private readonly exports: AccountExportsRepository,
    private readonly peers: AccountDataPeers,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The caller's own copy: `current` marks the calling session. A token of a since-deleted account no longer authenticates. */
  async ofCaller(principal: Principal): Promise<OwnAccountExportDto> {
    const account = await this.directory.findLiveAccountByPublicId(principal.userId);
    if (!account) throw new AppError('AUTH_UNAUTHENTICATED');
    const copy = await this.make(account);
    return { ...copy, sessions: copy.sessions.map((session) => toOwnSessionView(session, principal.sessionId)) };
  }

  /** An administrator's copy of any live or soft-deleted account (404 USER_NOT_FOUND otherwise); sessions without `current`. */
  async ofUser(publicId: string): Promise<AccountExportDto> {
    const account = await this.directory.findAccountByPublicId(publicId);
    if (!account) throw userNotFound();
    const copy = await this.make(account);
    return { ...copy, sessions: copy.sessions.map(toSessionView) };
  }

  private async make(account: UserAccount): Promise<Copy> {
    const { user } = account;
    const exportedAt = new Date();
    const counted = await this.count(user.id, exportedAt);
    try {
      const [peerData, sessions] = await Promise.all([this.peers.of(user.publicId), this.liveSessions(account)]);
      const profile = profileOf(account);
      return { exportedAt: exportedAt.toISOString(), profile, address: profile.address, sessions, feedback: peerData.feedback, files: peerData.files };
    } catch (error) {
      // Not made: it does not count against the account's five.
      await this.exports.forget(counted).catch(() => undefined);
      throw error;
    }
  }

  /** Counts one copy under the account's lock, so replicas answering at once cannot pass five; 429 beyond. */
  private count(userId: number, now: Date): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      await this.exports.lockAccount(tx, userId);
      const since = exportWindowStart(now);
      const wait = exportWait(await this.exports.madeSince(tx, userId, since), now);
      if (wait > 0) throw rateLimited(wait);
      await this.exports.forgetBefore(tx, userId, since);
      return this.exports.record(tx, userId, now);
    });
  }

  /** A banned or soft-deleted account has no live session (contract §10). */
  private async liveSessions({ user }: UserAccount): Promise<SessionRecord[]> {
    if (user.banned || user.deletedAt !== null) return [];
    return this.sessions.listLive(user.id);
  }
}
