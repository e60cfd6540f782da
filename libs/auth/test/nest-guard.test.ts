import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { EnvelopeExceptionFilter } from '@school/http/nest';
import { closedPort, createTestIssuer, scaled, type TestIssuer } from '@school/testing';
import { PERMISSIONS, type Principal, SessionRevocations, SURFACES } from '@school/auth';
import { AUTH_REDIS, AuthModule, Authenticated, CurrentPrincipal, RequirePermissions, RequireSurface, TokenSurface } from '@school/auth/nest';
import { randomPrefix, REDIS_URL } from './helpers.js';

@Controller('demo')
class DemoController {
  @Get('public')
  open() {
    return { message: 'ok', data: 'public', errorCode: null };
  }

  @Get('me')
  @Authenticated()
  me(@CurrentPrincipal() principal: Principal) {
    return { message: 'ok', data: principal, errorCode: null };
  }

  @Get('geography')
  @RequirePermissions(PERMISSIONS.Geography_READ, PERMISSIONS.Geography_UPDATE)
  geography() {
    return { message: 'ok', data: 'geography', errorCode: null };
  }
}

@Controller('feedback')
@RequirePermissions(PERMISSIONS.Feedback_READ)
class FeedbackController {
  @Get()
  list(@CurrentPrincipal() principal: Principal) {
    return { message: 'ok', data: principal.role, errorCode: null };
  }

  // The method's requirement adds to the controller's, it never replaces it.
  @Get('users')
  @RequirePermissions(PERMISSIONS.Users_READ)
  users() {
    return { message: 'ok', data: 'users', errorCode: null };
  }
}

// Like identity's /api/auth controllers: tokens of the other surface do not authenticate here.
@Controller('admin-surface')
@TokenSurface(SURFACES.admin)
class AdminSurfaceController {
  @Get('open')
  open() {
    return { message: 'ok', data: 'open', errorCode: null };
  }

  @Get('me')
  @Authenticated()
  me(@CurrentPrincipal() principal: Principal) {
    return { message: 'ok', data: principal.surface, errorCode: null };
  }

  @Get('geography')
  @RequirePermissions(PERMISSIONS.Geography_READ)
  geography() {
    return { message: 'ok', data: 'geography', errorCode: null };
  }
}

// Like the upload routes of contract §4: a valid token of the other surface is 403.
@Controller('uploads')
class UploadsController {
  @Get('admin')
  @RequireSurface(SURFACES.admin)
  admin(@CurrentPrincipal() principal: Principal) {
    return { message: 'ok', data: principal.role, errorCode: null };
  }

  @Get('customer')
  @RequireSurface(SURFACES.mobile)
  customer(@CurrentPrincipal() principal: Principal) {
    return { message: 'ok', data: principal.role, errorCode: null };
  }

  // Either order of the decorators keeps both requirements.
  @Get('video')
  @RequireSurface(SURFACES.admin)
  @RequirePermissions(PERMISSIONS.Geography_READ)
  video() {
    return { message: 'ok', data: 'video', errorCode: null };
  }

  @Get('landing')
  @RequirePermissions(PERMISSIONS.Geography_READ)
  @RequireSurface(SURFACES.admin)
  landing() {
    return { message: 'ok', data: 'landing', errorCode: null };
  }
}

describe('AuthModule on a Nest app (Fastify adapter, real HTTP)', () => {
  let issuer: TestIssuer;
  let app: INestApplication;
  let base: string;
  let prefix: string;

  beforeAll(async () => {
    issuer = await createTestIssuer();
    prefix = randomPrefix();

    @Module({
      imports: [AuthModule.forRoot({ ...issuer, redisUrl: REDIS_URL, revocationKey: `${prefix}revoked` })],
      controllers: [DemoController, FeedbackController, AdminSurfaceController, UploadsController],
    })
    class DemoModule {}

    app = await NestFactory.create(DemoModule, new FastifyAdapter(), { logger: false });
    app.useGlobalFilters(new EnvelopeExceptionFilter());
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterAll(async () => {
    try {
      const redis = app.get<Redis>(AUTH_REDIS);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await app.close();
      // The module closed its Redis connection on shutdown.
      expect(redis.status).toBe('end');
    } finally {
      await issuer.close();
    }
  });

  async function get(path: string, token?: string) {
    const response = await fetch(`${base}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: response.status, body: (await response.json()) as { message: string; data: unknown; errorCode: string | null } };
  }

  const token = (role: string, sid = 'session-1') => issuer.sign({ sub: `${role}-user`, sid, role });

  it('leaves undecorated routes public', async () => {
    expect(await get('/demo/public')).toEqual({ status: 200, body: { message: 'ok', data: 'public', errorCode: null } });
  });

  it('answers 401 AUTH_UNAUTHENTICATED in the envelope without a valid token', async () => {
    const expected = { status: 401, body: { message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' } };
    expect(await get('/demo/me')).toEqual(expected);
    expect(await get('/demo/me', 'garbage')).toEqual(expected);
    expect(await get('/demo/me', await issuer.sign({ sub: 'u', sid: 's', role: 'admin' }, { alg: 'none' }))).toEqual(expected);
    expect(await get('/demo/me', await issuer.sign({ sub: 'u', sid: 's', role: 'admin' }, { alg: 'HS256' }))).toEqual(expected);
    expect(await get('/demo/geography')).toEqual(expected);
    expect(await get('/feedback')).toEqual(expected);
  });

  it('never trusts identity headers', async () => {
    const response = await fetch(`${base}/demo/me`, { headers: { 'x-user-id': 'admin-user', 'x-user-role': 'admin' } });
    expect(response.status).toBe(401);
  });

  it('gives the verified principal to the handler', async () => {
    expect(await get('/demo/me', await token('customer'))).toEqual({
      status: 200,
      body: { message: 'ok', data: { userId: 'customer-user', sessionId: 'session-1', role: 'customer', surface: 'mobile', expiresAt: expect.any(String) }, errorCode: null },
    });
  });

  it('answers 403 PERMISSION_INSUFFICIENT when the role lacks a permission', async () => {
    const forbidden = {
      status: 403,
      body: { message: 'You do not have permission to perform this action', data: null, errorCode: 'PERMISSION_INSUFFICIENT' },
    };
    expect(await get('/demo/geography', await token('customer'))).toEqual(forbidden);
    expect(await get('/demo/geography', await token('staff'))).toEqual(forbidden);
    expect(await get('/feedback', await token('customer'))).toEqual(forbidden);
    expect(await get('/feedback/users', await token('staff'))).toEqual(forbidden);
  });

  it('lets a role holding every permission through', async () => {
    expect((await get('/demo/geography', await token('admin'))).status).toBe(200);
    expect(await get('/feedback', await token('staff'))).toEqual({ status: 200, body: { message: 'ok', data: 'staff', errorCode: null } });
    expect((await get('/feedback/users', await token('admin'))).status).toBe(200);
  });

  describe('surfaces (contract §4)', () => {
    const surfaceToken = (role: string, srf: string) => issuer.sign({ sub: `${role}-user`, sid: 'session-1', role, srf });
    const unauthenticated = { status: 401, body: { message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' } };
    const forbidden = { status: 403, body: { message: 'You do not have permission to perform this action', data: null, errorCode: 'PERMISSION_INSUFFICIENT' } };

    it('@TokenSurface leaves public routes public', async () => {
      expect((await get('/admin-surface/open')).status).toBe(200);
    });

    it('@TokenSurface lets tokens of its surface through, whatever their role', async () => {
      expect(await get('/admin-surface/me', await surfaceToken('admin', 'admin'))).toMatchObject({ status: 200, body: { data: 'admin' } });
      expect((await get('/admin-surface/me', await surfaceToken('staff', 'admin'))).status).toBe(200);
      expect((await get('/admin-surface/geography', await surfaceToken('admin', 'admin'))).status).toBe(200);
    });

    it('@TokenSurface refuses a token of the other surface with 401, even one whose role holds the permission', async () => {
      expect(await get('/admin-surface/me', await surfaceToken('customer', 'mobile'))).toEqual(unauthenticated);
      expect(await get('/admin-surface/me', await surfaceToken('admin', 'mobile'))).toEqual(unauthenticated);
      expect(await get('/admin-surface/geography', await surfaceToken('admin', 'mobile'))).toEqual(unauthenticated);
      expect(await get('/admin-surface/me')).toEqual(unauthenticated);
    });

    it('@RequireSurface needs a token (401) of its surface (403 for the other one)', async () => {
      expect(await get('/uploads/admin')).toEqual(unauthenticated);
      expect(await get('/uploads/admin', await surfaceToken('staff', 'admin'))).toEqual({ status: 200, body: { message: 'ok', data: 'staff', errorCode: null } });
      expect(await get('/uploads/admin', await surfaceToken('customer', 'mobile'))).toEqual(forbidden);
      expect(await get('/uploads/customer', await surfaceToken('customer', 'mobile'))).toEqual({ status: 200, body: { message: 'ok', data: 'customer', errorCode: null } });
      expect(await get('/uploads/customer', await surfaceToken('admin', 'admin'))).toEqual(forbidden);
    });

    it.each(['video', 'landing'])('@RequireSurface adds to @RequirePermissions in either order (%s)', async (route) => {
      expect((await get(`/uploads/${route}`, await surfaceToken('admin', 'admin'))).status).toBe(200);
      expect(await get(`/uploads/${route}`, await surfaceToken('staff', 'admin'))).toEqual(forbidden);
      expect(await get(`/uploads/${route}`, await surfaceToken('admin', 'mobile'))).toEqual(forbidden);
      expect(await get(`/uploads/${route}`)).toEqual(unauthenticated);
    });
  });

  it('refuses the token of a session revoked elsewhere (identity) on the next request', async () => {
    const admin = await token('admin', 'session-to-revoke');
    expect((await get('/demo/me', admin)).status).toBe(200);
    const redis = new Redis(REDIS_URL);
    try {
      await new SessionRevocations(redis, { key: `${prefix}revoked` }).revoke('session-to-revoke', 60);
    } finally {
      await redis.quit();
    }
    expect(await get('/demo/me', admin)).toMatchObject({ status: 401, body: { errorCode: 'AUTH_UNAUTHENTICATED' } });
  });

  it('answers 503 SERVICE_UNAVAILABLE when Redis is down, and still shuts down promptly', async () => {
    @Module({
      imports: [AuthModule.forRoot({ ...issuer, redisUrl: `redis://127.0.0.1:${await closedPort()}` })],
      controllers: [DemoController],
    })
    class BlindModule {}

    const blind = await NestFactory.create(BlindModule, new FastifyAdapter(), { logger: false });
    blind.useGlobalFilters(new EnvelopeExceptionFilter());
    await blind.listen(0, '127.0.0.1');
    try {
      const response = await fetch(`${await blind.getUrl()}/demo/me`, { headers: { authorization: `Bearer ${await token('admin')}` } });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' });
    } finally {
      const started = Date.now();
      await blind.close();
      expect(Date.now() - started).toBeLessThan(scaled(2_000));
      // No reconnect attempts after shutdown.
      const redis = blind.get<Redis>(AUTH_REDIS);
      let attempts = 0;
      redis.on('connecting', () => (attempts += 1)).on('reconnecting', () => (attempts += 1));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(attempts).toBe(0);
    }
  });
});
