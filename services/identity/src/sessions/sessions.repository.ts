import { Injectable } from '@nestjs/common';
import { AUTHENTICATION_METHODS, type AuthenticationMethod } from '@school/auth';
import { deleteInBatches } from '@school/prisma';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { SessionRevokeReason } from './session-revoke-reason.js';
import type { Surface } from './surface.js';

export interface NewSession {
  id: string;
  userId: number;
  surface: Surface;
  deviceId: string | null;
  deviceType: string | null;
  deviceName: string | null;
  ip: string | null;
  userAgent: string | null;
  expiresAt: Date;
  refreshTokenHash: string;
  amr: readonly AuthenticationMethod[];
}

/** The sessions a login beyond the cap ends (contract §10): all but the `keep` most recently used, as `reason`, at `now`. */
export interface OverCap {
  keep: number;
  reason: SessionRevokeReason;
  now: Date;
}

/** What opening a session did besides: the sessions it ended, and whether its device was new to the account. */
export interface OpenedSessionRow {
  ended: string[];
  deviceIsNew: boolean;
}

/** A presented refresh token, as refresh finds it before deciding. */
export interface PresentedToken {
  sessionId: string;
  userId: number;
  /** When the token was rotated; null while it is its session's live one. */
  rotatedAt: Date | null;
  /** Whether its session may be refreshed on the surface it is presented on: of that surface, unrevoked, unexpired. */
  live: boolean;
  /** How its session's login proved itself (contract §12). */
  amr: AuthenticationMethod[];
}

/** A refresh: the presented token's hash, its successor's, and the session's new expiry. */
export interface Rotation {
  presentedHash: string;
  nextHash: string;
  now: Date;
  expiresAt: Date;
}

interface PresentedRow {
  session_id: string;
  user_id: number;
  rotated_at: Date | null;
  live: boolean;
  amr: string[] | null;
}

/** A live session as its owner and administrators see it (contract §10). */
export interface SessionRecord {
  id: string;
  deviceId: string | null;
  deviceType: string | null;
  deviceName: string | null;
  createdAt: Date;
  lastUsedAt: Date;
}

/** A stored amr as the token claims it: the known methods in their order (a session of before contract §12: `pwd`). */
function amrOf(stored: string[] | null): AuthenticationMethod[] {
  const methods = AUTHENTICATION_METHODS.filter((method) => stored?.includes(method));
  return methods.length > 0 ? methods : ['pwd'];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sessions and their refresh tokens; the only place that touches those tables (opening one also remembers its device: `open`). */
@Injectable()
export class SessionsRepository {
  /** Login and refresh are hot paths: their statements are written in SQL, in the service's schema. */
  private readonly schema: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.schema = Prisma.raw(schema.sql);
  }

  /**
   * Opens a session in one statement (login is a hot path): under the account's logins lock, the
   * session and its first refresh token, the user's live sessions but it and the `keep` most
   * recently used of the others revoked (last login or refresh; of two used at once, the newer is
   * kept), and its device remembered among the account's known ones (no deviceId is the empty one).
   * The database function `open_login_session` (its migration) runs them after the lock, so the
   * sessions it counts are all there are. Answers the ids it revoked and whether the device was new
   * to the account (exactly one of concurrent logins from a device sees it new).
   */
  async open(tx: Transaction, session: NewSession, overCap: OverCap): Promise<OpenedSessionRow> {
    const { keep, reason, now } = overCap;
    const [row] = await this.db(tx).$queryRaw<{ ended: string[]; device_is_new: boolean }[]>`
      SELECT ended, device_is_new FROM ${this.schema}.open_login_session(
        ${session.id}::uuid, ${session.userId}::int, ${session.surface}, ${session.deviceId}, ${session.deviceType}, ${session.deviceName},
        ${session.ip}, ${session.userAgent}, ${session.expiresAt}::timestamptz, ${[...session.amr]}::text[], ${session.refreshTokenHash},
        ${keep}::int, ${reason}, ${now}::timestamptz)`;
    return { ended: row?.ended ?? [], deviceIsNew: row?.device_is_new === true };
  }

  /** The presented token with its session, or null when no such token exists. */
  async findPresented(presentedHash: string, surface: Surface, now: Date): Promise<PresentedToken | null> {
    const [row] = await this.prisma.$queryRaw<PresentedRow[]>`
      SELECT s.id::text AS session_id, s.user_id, t.rotated_at, s.amr,
             (s.surface = ${surface} AND s.revoked_at IS NULL AND s.expires_at > ${now}) AS live
        FROM ${this.schema}.refresh_tokens t
        JOIN ${this.schema}.sessions s ON s.id = t.session_id
       WHERE t.token_hash = ${presentedHash}`;
    return row ? { sessionId: row.session_id, userId: row.user_id, rotatedAt: row.rotated_at, live: row.live, amr: amrOf(row.amr) } : null;
  }

  /**
   * Rotates the presented token in one statement: marks it rotated if it is not yet, renews its
   * session if that is still unrevoked, and inserts the successor. True when the successor exists.
   *
   * The conditional UPDATE (`rotated_at IS NULL`) lets exactly one of several concurrent refreshes
   * of a token win: Postgres makes the others wait for the winner's commit, re-check the condition
   * on the row as the winner left it and match nothing. The session must still be unrevoked when
   * its row is renewed, so a concurrent revocation wins the same way.
   */
  async rotate(rotation: Rotation): Promise<boolean> {
    const { presentedHash, nextHash, now, expiresAt } = rotation;
    const [row] = await this.prisma.$queryRaw<{ rotated: boolean }[]>`
      WITH spent AS (
        UPDATE ${this.schema}.refresh_tokens SET rotated_at = ${now}
         WHERE token_hash = ${presentedHash} AND rotated_at IS NULL
        RETURNING session_id
      ), renewed AS (
        UPDATE ${this.schema}.sessions SET rotation_count = rotation_count + 1, last_used_at = ${now}, expires_at = ${expiresAt}
         WHERE id IN (SELECT session_id FROM spent) AND revoked_at IS NULL
        RETURNING id
      ), successor AS (
        INSERT INTO ${this.schema}.refresh_tokens (token_hash, session_id, created_at)
        SELECT ${nextHash}, id, ${now} FROM renewed
        RETURNING session_id
      )
      SELECT EXISTS (SELECT 1 FROM successor) AS rotated`;
    return row?.rotated === true;
  }

  /** Revokes one session if it is still live; true when this call revoked it. */
  async revoke(sessionId: string, reason: SessionRevokeReason, tx?: Transaction): Promise<boolean> {
    const { count } = await this.db(tx).session.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: new Date(), revokedReason: reason },
    });
    return count === 1;
  }

  /** Serialises the logins of one account until `tx` ends (`open` takes it too), so the live sessions counted after it are all there are. */
  async lockLogins(tx: Transaction, userId: number): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.sessions.logins'), ${userId}::int)`;
  }

  /** A user's live sessions (unrevoked, unexpired), newest first. */
  async findLiveOfUser(userId: number, now: Date): Promise<SessionRecord[]> {
    return this.prisma.session.findMany({
      where: { userId, revokedAt: null, expiresAt: { gt: now } },
      select: { id: true, deviceId: true, deviceType: true, deviceName: true, createdAt: true, lastUsedAt: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  /**
   * Revokes `sessionId` if it is a live session of `userId`; false otherwise (a malformed id
   * names no session and must not reach Postgres, which would refuse the uuid cast).
   */
  async revokeLiveOfUser(tx: Transaction, userId: number, sessionId: string, reason: SessionRevokeReason, now: Date): Promise<boolean> {
    if (!UUID.test(sessionId)) return false;
    const { count } = await this.db(tx).session.updateMany({
      where: { id: sessionId.toLowerCase(), userId, revokedAt: null, expiresAt: { gt: now } },
      data: { revokedAt: now, revokedReason: reason },
    });
    return count === 1;
  }

  /** Revokes every live (unexpired) session of a user (but `keep`), returning their ids. */
  async revokeAllOfUser(tx: Transaction, userId: number, reason: SessionRevokeReason, keep?: string): Promise<string[]> {
    const db = clientOf<Prisma.TransactionClient>(tx);
    const live = await db.session.findMany({
      where: { userId, revokedAt: null, expiresAt: { gt: new Date() }, ...(keep !== undefined && { id: { not: keep } }) },
      select: { id: true },
    });
    const ids = live.map((session) => session.id);
    if (ids.length === 0) return [];
    await db.session.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: reason } });
    return ids;
  }

  /** Deletes, `batch` rows per statement, sessions ended (revoked or expired) before `cutoff`, with their refresh tokens. */
  async deleteEndedBefore(cutoff: Date, batch: number): Promise<number> {
    return deleteInBatches(
      batch,
      () => this.prisma.$executeRaw`
      DELETE FROM ${this.schema}.sessions WHERE id IN (
        SELECT id FROM ${this.schema}.sessions WHERE revoked_at < ${cutoff} OR expires_at < ${cutoff} LIMIT ${batch})`,
    );
  }

  /** Deletes, `batch` rows per statement, rotated refresh tokens issued before `cutoff`. */
  async deleteRotatedTokensIssuedBefore(cutoff: Date, batch: number): Promise<number> {
    return deleteInBatches(
      batch,
      () => this.prisma.$executeRaw`
      DELETE FROM ${this.schema}.refresh_tokens WHERE token_hash IN (
        SELECT token_hash FROM ${this.schema}.refresh_tokens WHERE rotated_at IS NOT NULL AND created_at < ${cutoff} LIMIT ${batch})`,
    );
  }

  private db(tx: Transaction | undefined): Prisma.TransactionClient {
    return clientOf<Prisma.TransactionClient>(tx ?? this.prisma);
  }
}
