import { Injectable } from '@nestjs/common';
import { SERVICES } from '@school/config';
import { Prisma, PrismaClient, type Role } from '../generated/prisma/client.js';
import type { ProfileSource } from '../users/profile.js';
import type { SessionRevokeReason } from './session-revoke-reason.js';
import type { Surface } from './surface.js';

type Db = PrismaClient | Prisma.TransactionClient;

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

/** A presented refresh token with its session and the session's user (what refresh checks and answers). */
export interface PresentedRefreshToken {
  rotatedAt: Date | null;
  session: { id: string; surface: string; expiresAt: Date; revokedAt: Date | null };
  user: ProfileSource & { id: number; banned: boolean; deletedAt: Date | null; hasPassword: boolean };
}

export interface Rotation {
  sessionId: string;
  presentedHash: string;
  nextHash: string;
  now: Date;
  expiresAt: Date;
}

interface PresentedRow {
  rotated_at: Date | null;
  session_id: string;
  surface: string;
  session_expires_at: Date;
  revoked_at: Date | null;
  user_id: number;
  public_id: string;
  email: string;
  name: string;
  phone: string | null;
  role: Role;
  banned: boolean;
  deleted_at: Date | null;
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  created_at: Date;
  has_password: boolean;
}

// Login and refresh are hot paths: their statements are written in SQL, naming identity's own schema
// (contract §1) as the Prisma client and the outbox do.
const schema = Prisma.raw(`"${SERVICES.identity.schema}"`);

/** Sessions and their refresh tokens; the only place that touches those tables. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The session and its first refresh token, in one statement (login is a hot path). */
  async create(session: NewSession): Promise<void> {
    await this.prisma.$executeRaw`
      WITH created AS (
        INSERT INTO ${schema}.sessions (id, user_id, surface, device_id, device_type, device_name, ip, user_agent, expires_at)
        VALUES (${session.id}::uuid, ${session.userId}, ${session.surface}, ${session.deviceId}, ${session.deviceType},
                ${session.deviceName}, ${session.ip}, ${session.userAgent}, ${session.expiresAt})
        RETURNING id
      )
      INSERT INTO ${schema}.refresh_tokens (token_hash, session_id) SELECT ${session.refreshTokenHash}, id FROM created`;
  }

  /** One query: the token, its session, the session's user and whether that user has a password. */
  async findRefreshToken(tokenHash: string): Promise<PresentedRefreshToken | null> {
    const [row] = await this.prisma.$queryRaw<PresentedRow[]>`
      SELECT t.rotated_at, s.id::text AS session_id, s.surface, s.expires_at AS session_expires_at, s.revoked_at,
             u.id AS user_id, u.public_id::text AS public_id, u.email, u.name, u.phone, u.role::text AS role, u.banned,
             u.deleted_at, u.email_verified_at, u.phone_verified_at, u.created_at,
             (pa.password_hash IS NOT NULL) AS has_password
        FROM ${schema}.refresh_tokens t
        JOIN ${schema}.sessions s ON s.id = t.session_id
        JOIN ${schema}.users u ON u.id = s.user_id
        LEFT JOIN ${schema}.provider_accounts pa ON pa.user_id = u.id AND pa.provider = 'EMAIL'
       WHERE t.token_hash = ${tokenHash}`;
    if (!row) return null;
    return {
      rotatedAt: row.rotated_at,
      session: { id: row.session_id, surface: row.surface, expiresAt: row.session_expires_at, revokedAt: row.revoked_at },
      user: {
        id: row.user_id,
        publicId: row.public_id,
        email: row.email,
        name: row.name,
        phone: row.phone,
        role: row.role,
        banned: row.banned,
        deletedAt: row.deleted_at,
        emailVerifiedAt: row.email_verified_at,
        phoneVerifiedAt: row.phone_verified_at,
        createdAt: row.created_at,
        hasPassword: row.has_password,
      },
    };
  }

  /**
   * Replaces the presented refresh token by the next one in one statement. The conditional UPDATE
   * (`rotated_at IS NULL`) lets exactly one of several concurrent rotations of a token win: Postgres
   * makes the others wait for the winner's commit, re-check the condition and match no row. The
   * session must still be live when its row is updated (a concurrent revocation wins the same way).
   * False when this rotation lost; the presented token is then spent or its session has ended.
   */
  async rotate(rotation: Rotation): Promise<boolean> {
    const inserted = await this.prisma.$executeRaw`
      WITH rotated AS (
        UPDATE ${schema}.refresh_tokens SET rotated_at = ${rotation.now}
         WHERE token_hash = ${rotation.presentedHash} AND session_id = ${rotation.sessionId}::uuid AND rotated_at IS NULL
        RETURNING session_id
      ), renewed AS (
        UPDATE ${schema}.sessions SET rotation_count = rotation_count + 1, last_used_at = ${rotation.now}, expires_at = ${rotation.expiresAt}
         WHERE id IN (SELECT session_id FROM rotated) AND revoked_at IS NULL AND expires_at > ${rotation.now}
        RETURNING id
      )
      INSERT INTO ${schema}.refresh_tokens (token_hash, session_id, created_at)
      SELECT ${rotation.nextHash}, id, ${rotation.now} FROM renewed`;
    return inserted === 1;
  }

  /** Revokes one session if it is still live; true when this call revoked it. */
  async revoke(sessionId: string, reason: SessionRevokeReason, db: Db = this.prisma): Promise<boolean> {
    const { count } = await db.session.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: new Date(), revokedReason: reason },
    });
    return count === 1;
  }

  /** Revokes every live session of a user (but `keep`), returning their ids. */
  async revokeAllOfUser(userId: number, reason: SessionRevokeReason, db: Db, keep?: string): Promise<string[]> {
    const live = await db.session.findMany({
      where: { userId, revokedAt: null, ...(keep !== undefined && { id: { not: keep } }) },
      select: { id: true },
    });
    const ids = live.map((session) => session.id);
    if (ids.length === 0) return [];
    await db.session.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: reason } });
    return ids;
  }

  /** Runs `work` in a transaction, or in the caller's. */
  inTransaction<T>(db: Prisma.TransactionClient | undefined, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return db ? work(db) : this.prisma.$transaction(work);
  }
}
