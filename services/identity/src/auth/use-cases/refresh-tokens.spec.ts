import type { Transaction } from '@school/service';
import { fakeRevocations, fakeSessionsRepository, fakeLoginAccountsRepository, InMemoryDatabase } from '../../../test/fakes/in-memory.js';
import type { User } from '../../generated/prisma/client.js';
import type { SigningKeyService } from '../../keys/signing-key.service.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { RefreshTokens } from './refresh-tokens.js';

const signer = { sign: () => ({ token: 'access-token', expiresAt: new Date('2024-05-01T10:15:00Z') }) } as unknown as SigningKeyService;
const client = { ip: null, userAgent: null };

describe('RefreshTokens (contract §4)', () => {
  let db: InMemoryDatabase;
  let sessions: SessionsService;
  let service: RefreshTokens;

  beforeEach(() => {
    db = new InMemoryDatabase();
    sessions = new SessionsService(fakeSessionsRepository(db), signer, fakeRevocations(), { REFRESH_REUSE_GRACE_SECONDS: 0 });
    service = new RefreshTokens(sessions, fakeLoginAccountsRepository(db));
  });

  const signedIn = async (user: User, surface: 'admin' | 'mobile') => (await sessions.start(user, surface, undefined, client, {} as Transaction)).tokens.refreshToken;

  it('rotates the token and answers the profile as of the refresh', async () => {
    const user = db.addUser({ email: 'customer@example.com' }, 'hashed:x');
    const token = await signedIn(user, 'mobile');
    db.user(user.id).name = 'Renamed';
    const answer = await service.execute('mobile', token);
    expect(answer).toMatchObject({ accessToken: 'access-token', user: { publicId: user.publicId, name: 'Renamed', hasPassword: true } });
    expect(answer.refreshToken).not.toBe(token);
  });

  it.each([
    ['banned', { banned: true }],
    ['soft-deleted', { deletedAt: new Date() }],
    ['moved to a role the surface does not admit', { role: 'staff' as const }],
  ])('refuses the session of a user %s with 401, leaving the token as it was', async (_, change) => {
    const user = db.addUser({ email: 'customer@example.com' });
    const token = await signedIn(user, 'mobile');
    const stored = db.sessions[0]!.refreshTokenHash;
    Object.assign(db.user(user.id), change);
    await expect(service.execute('mobile', token)).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID', status: 401 });
    expect(db.sessions[0]!.refreshTokenHash).toBe(stored);
  });

  it('refuses a token presented on the other surface', async () => {
    const user = db.addUser({ email: 'staff@example.com', role: 'staff' });
    const token = await signedIn(user, 'admin');
    await expect(service.execute('mobile', token)).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
    await expect(service.execute('admin', token)).resolves.toMatchObject({ user: { publicId: user.publicId } });
  });
});
