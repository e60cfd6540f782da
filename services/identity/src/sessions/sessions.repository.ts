import { Injectable } from '@nestjs/common';
import { deleteInBatches } from '@school/prisma';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, PrismaClient, type Role } from '../generated/prisma/client.js';
import { addressColumnsOf, type AddressRow, type ProfileSource } from '../accounts/profile.js';
import type { SessionRevokeReason } from './session-revoke-reason.js';
import { rolesAdmittedBy, type Surface } from './surface.js';

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
}

/** The user of a presented refresh token's session, as refresh answers it. */
export type RefreshingUser = ProfileSource & { id: number; hasPassword: boolean };

/** A refresh: the presented token's hash, its successor's, and the surface it is presented on. */
export interface Rotation {
  presentedHash: string;
  nextHash: string;
  surface: Surface;
  now: Date;
  /** The session's new expiry. */
  expiresAt: Date;
}

/** What a refresh found and did; `rotated` is false when the presented token is left as it was. */
export interface RotationOutcome {
  sessionId: string;
  /** When the presented token was rotated before this refresh; null when it was still the live one. */
  rotatedAt: Date | null;
  /** Whether the session could be refreshed on this surface: live, with a user the surface admits. */
  live: boolean;
  rotated: boolean;
  user: RefreshingUser;
}

interface RotationRow extends AddressRow {
  rotated_at: Date | null;
  session_id: string;
  live: boolean;
  rotated: boolean;
  user_id: number;
  public_id: string;
  email: string;
  name: string;
  phone: string | null;
  role: Role;
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  created_at: Date;
  has_password: boolean;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sessions and their refresh tokens; the only place that touches those tables. */
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

  /** The session and its first refresh token, in one statement (login is a hot path). */
  async create(session: NewSession, tx?: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`
      WITH created AS (
        INSERT INTO ${this.schema}.sessions (id, user_id, surface, device_id, device_type, device_name, ip, user_agent, expires_at)
        VALUES (${session.id}::uuid, ${session.userId}, ${session.surface}, ${session.deviceId}, ${session.deviceType},
                ${session.deviceName}, ${session.ip}, ${session.userAgent}, ${session.expiresAt})
        RETURNING id
      )
      INSERT INTO ${this.schema}.refresh_tokens (token_hash, session_id) SELECT ${session.refreshTokenHash}, id FROM created`;
  }

  /**
   * A refresh in one statement (a hot path): finds the presented token with its session and user,
   * and, if the session is live on `rotation.surface` and the token not yet rotated, rotates it,
   * renews the session and inserts the successor. Null when no such token exists.
   *
   * The conditional UPDATE (`rotated_at IS NULL`) lets exactly one of several concurrent refreshes
   * of a token win: Postgres makes the others wait for the winner's commit, re-check the condition
   * on the row as the winner left it and match nothing. The session must still be unrevoked when
   * its row is renewed, so a concurrent revocation wins the same way.
   */
  async rotate(rotation: Rotation): Promise<RotationOutcome | null> {
    const { presentedHash, nextHash, surface, now, expiresAt } = rotation;
    const [row] = await this.prisma.$queryRaw<RotationRow[]>`
      WITH presented AS (
        SELECT t.token_hash, t.rotated_at, s.id AS session_id,
               (s.surface = ${surface} AND s.revoked_at IS NULL AND s.expires_at > ${now} AND NOT u.banned
                AND u.deleted_at IS NULL AND u.role::text = ANY(${rolesAdmittedBy(surface)}::text[])) AS live,
               u.id AS user_id, u.public_id::text AS public_id, u.email, u.name, u.phone, u.role::text AS role,
               u.email_verified_at, u.phone_verified_at, u.created_at, u.address_province_id, u.address_district_id,
               u.address_municipality_id, u.address_ward, u.address_street, (pa.password_hash IS NOT NULL) AS has_password
          FROM ${this.schema}.refresh_tokens t
          JOIN ${this.schema}.sessions s ON s.id = t.session_id
          JOIN ${this.schema}.users u ON u.id = s.user_id
          LEFT JOIN ${this.schema}.provider_accounts pa ON pa.user_id = u.id AND pa.provider = 'EMAIL'
         WHERE t.token_hash = ${presentedHash}
      ), spent AS (
        UPDATE ${this.schema}.refresh_tokens t SET rotated_at = ${now}
          FROM presented p
         WHERE t.token_hash = p.token_hash AND p.live AND t.rotated_at IS NULL
        RETURNING t.session_id
      ), renewed AS (
        UPDATE ${this.schema}.sessions SET rotation_count = rotation_count + 1, last_used_at = ${now}, expires_at = ${expiresAt}
         WHERE id IN (SELECT session_id FROM spent) AND revoked_at IS NULL
        RETURNING id
      ), successor AS (
        INSERT INTO ${this.schema}.refresh_tokens (token_hash, session_id, created_at)
        SELECT ${nextHash}, id, ${now} FROM renewed
        RETURNING session_id
      )
      SELECT p.rotated_at, p.session_id::text AS session_id, p.live, EXISTS (SELECT 1 FROM successor) AS rotated,
             p.user_id, p.public_id, p.email, p.name, p.phone, p.role, p.email_verified_at, p.phone_verified_at,
             p.created_at, p.address_province_id, p.address_district_id, p.address_municipality_id, p.address_ward,
             p.address_street, p.has_password
        FROM presented p`;
    if (!row) return null;
    return {
      sessionId: row.session_id,
      rotatedAt: row.rotated_at,
      live: row.live,
      rotated: row.rotated,
      user: {
        id: row.user_id,
        publicId: row.public_id,
        email: row.email,
        name: row.name,
        phone: row.phone,
        role: row.role,
        emailVerifiedAt: row.email_verified_at,
        phoneVerifiedAt: row.phone_verified_at,
        createdAt: row.created_at,
        ...addressColumnsOf(row),
        hasPassword: row.has_password,
      },
    };
  }

  /** Revokes one session if it is still live; true when this call revoked it. */
  async revoke(sessionId: string, reason: SessionRevokeReason): Promise<boolean> {
    const { count } = await this.prisma.session.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: new Date(), revokedReason: reason },
    });
    return count === 1;
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
