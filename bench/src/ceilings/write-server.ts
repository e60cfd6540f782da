#!/usr/bin/env node
// The write ceiling (bench/src/feedback.ts, bench/src/login.ts): a bare single-process Fastify + `pg`
// server doing the durable work of a product write and nothing else: no gateway, no NestJS, no
// Prisma, no tracing, no throttle, no logs. Its tables are copies of the product's
// (bench/src/ceilings/write-ceiling.ts) in the schema CEILING_SCHEMA (default `ceiling`) of DATABASE_URL.
//
//   POST /feedback  a guest submission: one transaction inserting the submission row and its
//                   `feedback.submitted` outbox row (whose insert trigger NOTIFYs, as feedback's does);
//   POST /refresh   identity's refresh statement (services/identity/src/sessions/sessions.repository.ts
//                   `rotate`: the conditional UPDATE ... RETURNING of the presented token, the renewed
//                   session, the successor token), then an access token signed with JWT_PRIVATE_KEY the
//                   way identity signs it (node:crypto on the calling thread, the same header and claims),
//                   answered with the same body (tokens and profile);
//   GET /health     200.
//
// PORT and HOST say where it listens; POOL_SIZE (default 10, Prisma's default here) bounds its connections.
import { createHash, createPrivateKey, createPublicKey, randomBytes, randomUUID, sign } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const schema = process.env.CEILING_SCHEMA ?? 'ceiling';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const ISSUER = process.env.JWT_ISSUER ?? 'school-commerce-identity';
const AUDIENCE = process.env.JWT_AUDIENCE ?? 'school-commerce';
const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** The customer app's refresh (`/api/mobile/auth/refresh`, what bench/src/login.ts measures) admits customers. */
const SURFACE = 'mobile';
const SURFACE_ROLES = ['customer'];

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const privateKey = createPrivateKey(process.env['JWT_PRIVATE_KEY'] ?? '');
const kid = createHash('sha256')
  .update(JSON.stringify(createPublicKey(privateKey).export({ format: 'jwk' })))
  .digest('base64url');
const encodedHeader = encode({ alg: 'EdDSA', kid, typ: 'JWT' });

function signAccessToken(claims: Record<string, unknown>): { token: string; expiresAt: Date } {
  const iat = Math.floor(Date.now() / 1000);
  const input = `${encodedHeader}.${encode({ ...claims, iss: ISSUER, aud: AUDIENCE, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS })}`;
  return { token: `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`, expiresAt: new Date((iat + ACCESS_TOKEN_TTL_SECONDS) * 1000) };
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** RFC 9562 UUID v7, as @school/prisma's uuidv7 gives outbox ids. */
function uuidv7(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const INSERT_SUBMISSION = `
  INSERT INTO ${schema}.feedback_submissions (id, name, email, phone, category, subject, message, ip, device_id, user_agent)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING created_at`;
const INSERT_OUTBOX = `INSERT INTO ${schema}.outbox_events (id, type, payload, traceparent) VALUES ($1::uuid, $2, $3::jsonb, $4)`;

// Identity's rotate statement, table for table, in the ceiling's schema.
const ROTATE = `
  WITH presented AS (
    SELECT t.token_hash, t.rotated_at, s.id AS session_id,
           (s.surface = $3 AND s.revoked_at IS NULL AND s.expires_at > $4 AND NOT u.banned
            AND u.deleted_at IS NULL AND u.role::text = ANY($5::text[])) AS live,
           u.id AS user_id, u.public_id::text AS public_id, u.email, u.name, u.phone, u.role::text AS role,
           u.email_verified_at, u.phone_verified_at, u.created_at, u.address_province_id, u.address_district_id,
           u.address_municipality_id, u.address_ward, u.address_street, (pa.password_hash IS NOT NULL) AS has_password
      FROM ${schema}.refresh_tokens t
      JOIN ${schema}.sessions s ON s.id = t.session_id
      JOIN ${schema}.users u ON u.id = s.user_id
      LEFT JOIN ${schema}.provider_accounts pa ON pa.user_id = u.id AND pa.provider = 'EMAIL'
     WHERE t.token_hash = $1
  ), spent AS (
    UPDATE ${schema}.refresh_tokens t SET rotated_at = $4
      FROM presented p
     WHERE t.token_hash = p.token_hash AND p.live AND t.rotated_at IS NULL
    RETURNING t.session_id
  ), renewed AS (
    UPDATE ${schema}.sessions SET rotation_count = rotation_count + 1, last_used_at = $4, expires_at = $6
     WHERE id IN (SELECT session_id FROM spent) AND revoked_at IS NULL
    RETURNING id
  ), successor AS (
    INSERT INTO ${schema}.refresh_tokens (token_hash, session_id, created_at)
    SELECT $2, id, $4 FROM renewed
    RETURNING session_id
  )
  SELECT p.rotated_at, p.session_id::text AS session_id, p.live, EXISTS (SELECT 1 FROM successor) AS rotated,
         p.user_id, p.public_id, p.email, p.name, p.phone, p.role, p.email_verified_at, p.phone_verified_at,
         p.created_at, p.address_province_id, p.address_district_id, p.address_municipality_id, p.address_ward,
         p.address_street, p.has_password
    FROM presented p`;

const app = Fastify({ logger: false });

const guestFeedback = {
  type: 'object',
  required: ['name', 'email', 'category', 'message'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    email: { type: 'string', maxLength: 255 },
    phone: { type: 'string', maxLength: 40 },
    category: { enum: ['bug_report', 'feature_request', 'general_feedback'] },
    subject: { type: 'string', maxLength: 255 },
    message: { type: 'string', minLength: 1, maxLength: 5000 },
  },
};

interface GuestFeedback {
  name: string;
  email: string;
  phone?: string | null;
  category: string;
  subject?: string | null;
  message: string;
}

app.post<{ Body: GuestFeedback }>('/feedback', { schema: { body: guestFeedback } }, async (request) => {
  const { name, email, phone = null, category, subject = null, message } = request.body;
  const id = randomUUID();
  const ip = request.headers['x-forwarded-for'] ?? request.ip;
  const deviceId = request.headers['x-device-id'] ?? null;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const [{ created_at: createdAt }] = (
      await client.query(INSERT_SUBMISSION, [id, name, email, phone, category, subject, message, ip, deviceId, request.headers['user-agent'] ?? null])
    ).rows;
    const payload = { id, category, subject, message, createdAt: createdAt.toISOString(), from: { type: 'guest', name, email, phone } };
    await client.query(INSERT_OUTBOX, [uuidv7(), 'feedback.submitted', JSON.stringify(payload), null]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return { message: 'Thank you for your feedback', data: { received: true }, errorCode: null };
});

app.post<{ Body: { refreshToken: string } }>(
  '/refresh',
  { schema: { body: { type: 'object', required: ['refreshToken'], properties: { refreshToken: { type: 'string', maxLength: 512 } } } } },
  async (request, reply) => {
    const next = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    const [row] = (await pool.query(ROTATE, [hashToken(request.body.refreshToken), hashToken(next), SURFACE, now, SURFACE_ROLES, expiresAt])).rows;
    if (!row?.rotated) return reply.code(401).send({ message: 'Invalid refresh token', data: null, errorCode: 'AUTH_REFRESH_TOKEN_INVALID' });
    const access = signAccessToken({ sub: row.public_id, sid: row.session_id, role: row.role, srf: SURFACE });
    const address =
      row.address_province_id === null
        ? null
        : {
            provinceId: row.address_province_id,
            districtId: row.address_district_id,
            municipalityId: row.address_municipality_id,
            ward: row.address_ward,
            street: row.address_street,
          };
    return {
      message: 'Token refreshed',
      data: {
        accessToken: access.token,
        refreshToken: next,
        tokenType: 'Bearer',
        expiresIn: ACCESS_TOKEN_TTL_SECONDS,
        accessTokenExpiresAt: access.expiresAt.toISOString(),
        refreshTokenExpiresAt: expiresAt.toISOString(),
        user: {
          publicId: row.public_id,
          email: row.email,
          name: row.name,
          phone: row.phone,
          role: row.role,
          emailVerified: row.email_verified_at !== null,
          phoneVerified: row.phone_verified_at !== null,
          hasPassword: row.has_password,
          address,
          createdAt: row.created_at.toISOString(),
        },
      },
      errorCode: null,
    };
  },
);

app.get('/health', async () => ({ status: 'ok' }));

process.once('SIGTERM', () => void app.close().then(() => pool.end()));
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
