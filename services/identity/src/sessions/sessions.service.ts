import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AuthenticationMethod, type Role, SessionRevocations } from '@school/auth';
import { AppError } from '@school/http';
import { APP_CONFIG, type Transaction } from '@school/service';
import { SigningKeyService } from '../keys/signing-key.service.js';
import { MAX_LIVE_SESSIONS } from './live-session-cap.js';
import { hashRefreshToken, newRefreshToken } from './refresh-token.js';
import { SESSION_REVOKE_REASONS, type SessionRevokeReason } from './session-revoke-reason.js';
import type { SessionsConfig } from './sessions.config.js';
import { type SessionRecord, SessionsRepository } from './sessions.repository.js';
import type { Surface } from './surface.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, REVOCATION_TTL_SECONDS } from './token-lifetimes.js';

/** The device a client says it runs on (spec §2.1), stored on the session. */
export interface DeviceInfo {
  deviceId?: string | undefined;
  deviceType?: string | undefined;
  deviceName?: string | undefined;
}

/** Where a request came from, as identity sees it behind the gateway. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  /** Aborts when the request's client is gone (its response closed unanswered): its queued work can leave the queue. */
  abandoned?: AbortSignal | undefined;
}

/** Who a session is for: the claims of its access tokens come from here. */
export interface SessionSubject {
  id: number;
  publicId: string;
  role: Role;
}

/** RFC 8176 methods of a login (contract §12): a password, and a one-time code after two-step sign-in. */
export const PASSWORD_LOGIN: readonly AuthenticationMethod[] = ['pwd'];
export const TWO_STEP_LOGIN: readonly AuthenticationMethod[] = ['pwd', 'otp'];

/** The token pair of contract §4 (the profile is added by the caller). */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  accessTokenExpiresAt: string;
  refreshTokenExpiresAt: string;
}

/** A session a login opened: its token pair, and whether the account had never logged in from its device (contract §10). */
export interface OpenedSession {
  tokens: IssuedTokens;
  deviceIsNew: boolean;
}

/** A refreshed session: the new pair, and the holder its caller found for the session's user. */
export interface RefreshedSession<Holder extends SessionSubject> {
  tokens: IssuedTokens;
  holder: Holder;
}

/**
 * The session's user, as the caller of a refresh knows them (sessions know no accounts): null when
 * the user may no longer refresh on the surface (banned, deleted, or a role the surface does not admit).
 */
export type HolderOf<Holder extends SessionSubject> = (userId: number, surface: Surface) => Promise<Holder | null>;

const invalidRefreshToken = () => new AppError('AUTH_REFRESH_TOKEN_INVALID');

/**
 * Login sessions: one per signed-in device, each with a rotating refresh token (30 days, renewed
 * on every refresh) and short access tokens (15 minutes) carrying its id as `sid`.
 *
 * Ending a session marks its row revoked and records its id in the revocation store every
 * verifier checks, so its access tokens are refused at once; the row alone stops its refresh.
 *
 * Refresh-token reuse (contract §4). Every rotation keeps the old token's hash with `rotatedAt`
 * set. A rotated token presented again is a replay: the whole session is revoked. Two exceptions
 * keep the session, both answered 401 all the same:
 * - a refresh that ran concurrently with the one that rotated its token and lost (it never saw
 *   the token rotated; the client uses the pair the winner received);
 * - a repeat within REFRESH_REUSE_GRACE_SECONDS of the rotation (default 0: none).
 * Every refusal is 401 AUTH_REFRESH_TOKEN_INVALID, so a replayer learns nothing either way.
 */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);
  private readonly reuseGraceMs: number;

  constructor(
    private readonly repository: SessionsRepository,
    private readonly keys: SigningKeyService,
    private readonly revocations: SessionRevocations,
    @Inject(APP_CONFIG) config: SessionsConfig,
  ) {
    this.reuseGraceMs = config.REFRESH_REUSE_GRACE_SECONDS * 1000;
  }

  /**
   * Opens a session in the login's transaction (which records its new-device check too), and says
   * whether its device was new to the account. Beyond MAX_LIVE_SESSIONS it ends the account's least
   * recently used ones like a logout, the revocation store written before the commit as in
   * revokeAllForUser; the account's logins wait for one another here, so concurrent ones on any
   * replica cannot leave more. `amr`: how the login proved itself; the session keeps it for its refreshes.
   */
  async start(
    subject: SessionSubject,
    surface: Surface,
    device: DeviceInfo | undefined,
    client: ClientInfo,
    tx: Transaction,
    amr: readonly AuthenticationMethod[] = PASSWORD_LOGIN,
  ): Promise<OpenedSession> {
    const sessionId = randomUUID();
    const refreshToken = newRefreshToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    const opened = await this.repository.open(
      tx,
      {
        id: sessionId,
        userId: subject.id,
        surface,
        deviceId: device?.deviceId ?? null,
        deviceType: device?.deviceType ?? null,
        deviceName: device?.deviceName ?? null,
        ip: client.ip,
        userAgent: client.userAgent,
        expiresAt,
        refreshTokenHash: hashRefreshToken(refreshToken),
        amr,
      },
      { keep: MAX_LIVE_SESSIONS - 1, reason: SESSION_REVOKE_REASONS.overCap, now },
    );
    await this.revokeInStore(opened.ended);
    return { tokens: this.issue(subject, surface, { id: sessionId, amr }, refreshToken, expiresAt), deviceIsNew: opened.deviceIsNew };
  }

  /**
   * Rotates a refresh token of `surface`. 401 AUTH_REFRESH_TOKEN_INVALID when it is unknown, of the
   * other surface, already rotated (see the class comment), or its session is no longer live:
   * revoked, expired, or its user one `holderOf` refuses. The holder is asked before the rotation,
   * so a refused one leaves the token as it was.
   */
  async refresh<Holder extends SessionSubject>(refreshToken: string, surface: Surface, holderOf: HolderOf<Holder>): Promise<RefreshedSession<Holder>> {
    const now = new Date();
    const presentedHash = hashRefreshToken(refreshToken);
    const presented = await this.repository.findPresented(presentedHash, surface, now);
    const holder = presented?.live ? await holderOf(presented.userId, surface) : null;
    if (!presented || !holder) throw invalidRefreshToken();
    if (presented.rotatedAt === null) {
      const next = newRefreshToken();
      const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
      if (await this.repository.rotate({ presentedHash, nextHash: hashRefreshToken(next), now, expiresAt })) {
        return { holder, tokens: this.issue(holder, surface, { id: presented.sessionId, amr: presented.amr }, next, expiresAt) };
      }
      // Spent since it was found, by a concurrent refresh that won: a repeat within the grace
      // window by definition, the session left as the winner made it.
    } else {
      await this.onRotatedTokenPresented(presented.sessionId, presented.rotatedAt, now);
    }
    throw invalidRefreshToken();
  }

  /** Ends one session (logout); repeating it is harmless. */
  async end(sessionId: string, reason: SessionRevokeReason, tx?: Transaction): Promise<void> {
    await this.repository.revoke(sessionId, reason, tx);
    // Written even when the row was already revoked: a retry after a failed write must land.
    await this.revocations.revoke(sessionId, REVOCATION_TTL_SECONDS);
  }

  /** A user's live sessions, newest first (contract §10). */
  listLive(userId: number): Promise<SessionRecord[]> {
    return this.repository.findLiveOfUser(userId, new Date());
  }

  /**
   * Ends one live session of `userId` in the caller's transaction, the revocation store written
   * before the commit as in revokeAllForUser (a failed write rolls back, so a retry finds the
   * session still live); 404 SESSION_NOT_FOUND when it is not one.
   */
  async endOfUser(tx: Transaction, userId: number, sessionId: string, reason: SessionRevokeReason): Promise<void> {
    if (!(await this.repository.revokeLiveOfUser(tx, userId, sessionId, reason, new Date()))) throw new AppError('SESSION_NOT_FOUND');
    await this.revocations.revoke(sessionId.toLowerCase(), REVOCATION_TTL_SECONDS);
  }

  /**
   * Ends every live session of a user (ban, password reset, soft delete, role change), in the
   * caller's transaction. The revocation store is written inside the transaction, before the commit: if it
   * cannot be written the whole change rolls back (503) instead of committing while the access
   * tokens stay valid. Should the transaction roll back later for another reason, the worst case
   * is sessions whose access tokens are refused until they expire: fail closed.
   */
  async revokeAllForUser(tx: Transaction, userId: number, reason: SessionRevokeReason): Promise<number> {
    return this.revokeInStore(await this.repository.revokeAllOfUser(tx, userId, reason));
  }

  /**
   * Erasure (contract §11): as revokeAllForUser, once the account's logins in progress are done
   * (their lock held to the commit), so that no session opens that the revocation store misses
   * before the account's rows go.
   */
  async revokeAllOnErasure(tx: Transaction, userId: number): Promise<number> {
    await this.repository.lockLogins(tx, userId);
    return this.revokeAllForUser(tx, userId, SESSION_REVOKE_REASONS.erased);
  }

  /** As revokeAllForUser, keeping the caller's own session (password change, "end every other session"). */
  async revokeOtherSessions(tx: Transaction, userId: number, keepSessionId: string, reason: SessionRevokeReason): Promise<number> {
    return this.revokeInStore(await this.repository.revokeAllOfUser(tx, userId, reason, keepSessionId));
  }

  /**
   * Forgets what no rule needs any more: sessions that ended before `cutoff`, and rotated refresh
   * tokens past the lifetime they had when issued (a replay of one could not have refreshed
   * anyway; it now gets the same 401 without ending its session).
   */
  async prune(cutoff: Date, now: Date, batch: number): Promise<{ sessions: number; refreshTokens: number }> {
    const sessions = await this.repository.deleteEndedBefore(cutoff, batch);
    const refreshTokens = await this.repository.deleteRotatedTokensIssuedBefore(new Date(now.getTime() - REFRESH_TOKEN_TTL_SECONDS * 1000), batch);
    return { sessions, refreshTokens };
  }

  private async onRotatedTokenPresented(sessionId: string, rotatedAt: Date, now: Date): Promise<void> {
    if (now.getTime() - rotatedAt.getTime() <= this.reuseGraceMs) return;
    this.logger.warn({ sessionId }, 'Rotated refresh token presented after the grace window: session revoked');
    await this.end(sessionId, SESSION_REVOKE_REASONS.reuse);
  }

  private async revokeInStore(sessionIds: string[]): Promise<number> {
    await Promise.all(sessionIds.map((id) => this.revocations.revoke(id, REVOCATION_TTL_SECONDS)));
    return sessionIds.length;
  }

  /** The access token names the session's surface (`srf`): the verifiers bind it to that surface's routes. */
  private issue(
    subject: SessionSubject,
    surface: Surface,
    session: { id: string; amr: readonly AuthenticationMethod[] },
    refreshToken: string,
    refreshExpiresAt: Date,
  ): IssuedTokens {
    const access = this.keys.sign({ sub: subject.publicId, sid: session.id, role: subject.role, srf: surface, amr: session.amr }, ACCESS_TOKEN_TTL_SECONDS);
    return {
      accessToken: access.token,
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      accessTokenExpiresAt: access.expiresAt.toISOString(),
      refreshTokenExpiresAt: refreshExpiresAt.toISOString(),
    };
  }
}
