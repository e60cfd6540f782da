import { type RouteAuth, type RouteSpec, SERVICE_ROUTES } from '@school/contracts';
import { ROUTE_TABLE } from './route-table.js';

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** The tables of spec §4.1 and §4.2, as the spec writes them. */
const SPEC_AUTH_ROUTES: readonly (readonly [string, string, RouteAuth])[] = [
  ['POST', '/api/auth/login/email', 'public'],
  ['POST', '/api/auth/password/forgot', 'public'],
  ['POST', '/api/auth/password/reset', 'public'],
  ['POST', '/api/auth/password/set', 'jwt'],
  ['POST', '/api/auth/email/verify/resend', 'public'],
  ['POST', '/api/auth/email/verify/confirm', 'public'],
  ['POST', '/api/auth/refresh', 'public'],
  ['GET', '/api/auth/me', 'jwt'],
  ['GET', '/api/auth/permissions', 'jwt'],
  ['POST', '/api/auth/phone/verify/request', 'jwt'],
  ['POST', '/api/auth/phone/verify/confirm', 'jwt'],
  ['DELETE', '/api/auth/logout', 'jwt'],
  ['POST', '/api/mobile/auth/login/email', 'public'],
  ['POST', '/api/mobile/auth/refresh', 'public'],
  ['POST', '/api/mobile/auth/password/forgot', 'public'],
  ['POST', '/api/mobile/auth/password/reset', 'public'],
  ['POST', '/api/mobile/auth/password/set', 'jwt'],
  ['POST', '/api/mobile/auth/email/verify/resend', 'public'],
  ['POST', '/api/mobile/auth/email/verify/confirm', 'public'],
  ['GET', '/api/mobile/auth/me', 'jwt'],
  ['DELETE', '/api/mobile/auth/logout', 'jwt'],
];

describe('route table', () => {
  it('has each method and path once', () => {
    const keys = ROUTE_TABLE.map(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves every route of the manifests with the service that declares it, each alias after its route, and nothing else', () => {
    const declared = Object.entries(SERVICE_ROUTES).flatMap(([service, manifests]) =>
      manifests
        .flatMap((manifest) => Object.values<RouteSpec>(manifest))
        .flatMap((spec) => [`${service} ${spec.method} ${spec.path}`, ...(spec.alsoWithoutApiPrefix ? [`${service} ${spec.method} ${spec.path.slice('/api'.length)}`] : [])]),
    );
    expect(ROUTE_TABLE.map((route) => `${route.service} ${key(route)}`).sort()).toEqual(declared.sort());
  });

  it('holds the admin and mobile authentication routes of spec §4.1 and §4.2 with the auth the spec gives them', () => {
    const byKey = new Map(ROUTE_TABLE.map((route) => [key(route), route]));
    const served = SPEC_AUTH_ROUTES.map(([method, path]) => [`${method} ${path}`, byKey.get(`${method} ${path}`)?.service, byKey.get(`${method} ${path}`)?.auth]);
    expect(served).toEqual(SPEC_AUTH_ROUTES.map(([method, path, auth]) => [`${method} ${path}`, 'identity', auth]));
  });

  it('lets through without a token only the authentication routes §4.1, §4.2 and contract §12 make public', () => {
    const auth = ROUTE_TABLE.filter((route) => route.path.startsWith('/api/auth/') || route.path.startsWith('/api/mobile/auth/'));
    const publicOnes = auth.filter((route) => route.auth === 'public').map((route) => route.path.replace('/api/mobile/auth/', '/api/auth/'));
    expect(new Set(publicOnes)).toEqual(
      new Set([
        '/api/auth/login/email',
        '/api/auth/login/mfa',
        '/api/auth/refresh',
        '/api/auth/password/forgot',
        '/api/auth/password/reset',
        '/api/auth/email/verify/resend',
        '/api/auth/email/verify/confirm',
      ]),
    );
  });

  it('answers every upload route also without /api, forwarding to the /api path, always with a token', () => {
    const media = ROUTE_TABLE.filter((route) => route.service === 'media' && route.path !== '/api/files/signed/*');
    const canonical = media.filter((entry) => entry.path.startsWith('/api/'));
    expect(canonical.map(key)).toEqual(expect.arrayContaining(['POST /api/upload', 'POST /api/mobile/uploads', 'GET /api/mobile/uploads/signed-url/*']));
    for (const route of canonical) {
      const alias = media.find((entry) => key(entry) === `${route.method} ${route.path.slice(4)}`);
      expect(alias).toMatchObject({ upstreamPrefix: '/api', auth: 'jwt', body: route.body, service: 'media' });
      expect(alias?.throttles).toEqual(route.throttles);
    }
    // Nothing but those aliases runs outside /api.
    expect(
      media
        .filter((entry) => !entry.path.startsWith('/api/'))
        .map(key)
        .sort(),
    ).toEqual(canonical.map((route) => `${route.method} ${route.path.slice(4)}`).sort());
    expect(media.every((route) => route.auth === 'jwt')).toBe(true);
  });

  it('puts each throttle policy on the routes the spec and contract name', () => {
    const throttled = Object.fromEntries(ROUTE_TABLE.filter((route) => route.throttles).map((route) => [key(route), route.throttles]));
    expect(throttled).toEqual({
      'POST /api/auth/login/email': ['login', 'loginPerIp'],
      'POST /api/mobile/auth/login/email': ['login', 'loginPerIp'],
      // Contract §12: the second step counts in the password step's buckets.
      'POST /api/auth/login/mfa': ['login', 'loginPerIp'],
      'POST /api/auth/password/forgot': ['forgotPassword'],
      'POST /api/mobile/auth/password/forgot': ['forgotPassword'],
      'POST /api/auth/password/reset': ['resetPassword'],
      'POST /api/mobile/auth/password/reset': ['resetPassword'],
      'POST /api/auth/password/set': ['setPassword'],
      'POST /api/mobile/auth/password/set': ['setPassword'],
      'POST /api/auth/email/verify/resend': ['emailVerifyResend'],
      'POST /api/mobile/auth/email/verify/resend': ['emailVerifyResend'],
      'POST /api/mobile/feedback': ['feedback'],
      'POST /api/mobile/feedback/public': ['guestFeedback', 'guestFeedbackPerIp'],
      'POST /api/upload': ['adminUpload'],
      'POST /upload': ['adminUpload'],
      'POST /api/upload/multiple': ['adminUpload'],
      'POST /upload/multiple': ['adminUpload'],
      'POST /api/mobile/uploads': ['mobileUpload'],
      'POST /mobile/uploads': ['mobileUpload'],
      'GET /api/mobile/uploads/signed-url/*': ['mobileSignedUrl'],
      'GET /mobile/uploads/signed-url/*': ['mobileSignedUrl'],
    });
    const perKey = Object.fromEntries(ROUTE_TABLE.filter((route) => route.perKeyThrottles).map((route) => [key(route), route.perKeyThrottles]));
    expect(perKey).toEqual({
      'POST /api/mobile/uploads/signed-urls': ['mobileSignedUrl'],
      'POST /mobile/uploads/signed-urls': ['mobileSignedUrl'],
    });
  });

  it('marks the routes answering with tokens or a profile as no-store (contract §3), and the audit trail (people’s emails, §13)', () => {
    const noStore = ROUTE_TABLE.filter((route) => route.noStore).map(key);
    expect(noStore.sort()).toEqual(
      [
        'POST /api/auth/login/email',
        'POST /api/mobile/auth/login/email',
        'POST /api/auth/refresh',
        'POST /api/mobile/auth/refresh',
        'GET /api/auth/me',
        'GET /api/mobile/auth/me',
        'GET /api/auth/permissions',
        'GET /api/users',
        'POST /api/users',
        'GET /api/users/:publicId',
        'PATCH /api/users/:publicId',
        'DELETE /api/users/:publicId',
        'GET /api/auth/sessions',
        'GET /api/mobile/auth/sessions',
        'GET /api/users/:publicId/sessions',
        'POST /api/auth/login/mfa',
        'GET /api/auth/mfa',
        'POST /api/auth/mfa/totp',
        'POST /api/auth/mfa/totp/confirm',
        'POST /api/auth/mfa/recovery-codes',
        'GET /api/auth/account/export',
        'GET /api/mobile/account/export',
        'GET /api/users/:publicId/export',
        'GET /api/audit-events',
      ].sort(),
    );
  });

  it('streams multipart only on the upload routes and lets only the event stream run without a timeout', () => {
    const uploads = ROUTE_TABLE.filter((route) => route.body.kind === 'upload').map(key);
    expect(uploads.sort()).toEqual(
      ['POST /api/upload', 'POST /upload', 'POST /api/upload/multiple', 'POST /upload/multiple', 'POST /api/mobile/uploads', 'POST /mobile/uploads'].sort(),
    );
    expect(ROUTE_TABLE.filter((route) => route.stream).map(key)).toEqual(['GET /api/notifications/stream']);
  });
});
