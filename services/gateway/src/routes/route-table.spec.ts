import { ROUTE_TABLE } from './route-table.js';

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('route table', () => {
  it('has each method and path once', () => {
    const keys = ROUTE_TABLE.map(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('holds the 12 admin and 9 mobile authentication routes of spec §4.1 and §4.2, the 3 of contract §10 on each, the admin export of §11 and the 6 of §12 (admin), public as §5 says', () => {
    const admin = ROUTE_TABLE.filter((route) => route.path.startsWith('/api/auth/'));
    const mobile = ROUTE_TABLE.filter((route) => route.path.startsWith('/api/mobile/auth/'));
    expect(admin).toHaveLength(22);
    expect(mobile).toHaveLength(12);
    const publicOnes = [...admin, ...mobile].filter((route) => route.auth === 'public').map((route) => route.path.replace('/api/mobile/auth/', '/api/auth/'));
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
    expect(media).toHaveLength(18);
    for (const route of media.filter((entry) => entry.path.startsWith('/api/'))) {
      const alias = media.find((entry) => key(entry) === `${route.method} ${route.path.slice(4)}`);
      expect(alias).toMatchObject({ upstreamPrefix: '/api', auth: 'jwt', body: route.body, service: 'media' });
      expect(alias?.throttles).toEqual(route.throttles);
    }
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
