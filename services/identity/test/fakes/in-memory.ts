import type { Role, SessionRevocations } from '@school/auth';
import type { Outbox } from '@school/messaging';
import type { EventPayload, EventType } from '@school/contracts';
import type { Transaction, TransactionOptions, UnitOfWork } from '@school/service';
import type { CredentialsRepository, NewCredential } from '../../src/credentials/credentials.repository.js';
import type { MessageRequest } from '../../src/credentials/message-requests/message-request.js';
import type { MessageRequestsRepository } from '../../src/credentials/message-requests/message-requests.repository.js';
import type { CredentialPurpose, User, VerificationCredential } from '../../src/generated/prisma/client.js';
import type { LoginBackoffService } from '../../src/login-backoff/login-backoff.service.js';
import { hashingBusy, type PasswordHasher } from '../../src/passwords/password-hasher.js';
import type { ProviderAccountsRepository } from '../../src/accounts/provider-accounts.repository.js';
import type { SessionRevokeReason } from '../../src/sessions/session-revoke-reason.js';
import type { KnownDevicesRepository } from '../../src/sessions/known-devices.repository.js';
import type { NewSession, OpenedSessionRow, OverCap, PresentedToken, Rotation, SessionRecord, SessionsRepository } from '../../src/sessions/sessions.repository.js';
import type { AccountMatch, AccountMatchesRepository } from '../../src/accounts/account-matches.repository.js';
import type { AdminsRepository } from '../../src/accounts/admins.repository.js';
import type { LoginAccount, LoginAccountsRepository } from '../../src/accounts/login-accounts.repository.js';
import type { UserAccount, UserDirectoryRepository } from '../../src/accounts/user-directory.repository.js';
import type { NewUser, UserChanges, UsersRepository } from '../../src/accounts/users.repository.js';

/**
 * Identity's tables in memory, for unit specs of the services: each repository fake below keeps its
 * rows here, and the unit of work rolls every table back when its work throws, as Postgres would.
 * Locks are no-ops (a spec runs one request at a time).
 */
export class InMemoryDatabase {
  users: User[] = [];
  passwords = new Map<number, string>();
  credentials: VerificationCredential[] = [];
  sessions: (NewSession & { revokedAt: Date | null; revokedReason: SessionRevokeReason | null; createdAt?: Date })[] = [];
  /** `${userId}:${deviceId}` of every device an account logged in from, with when its new-device email went (null: none). */
  knownDevices = new Map<string, Date | null>();
  messageRequests: MessageRequest[] = [];
  events: { type: EventType; payload: unknown }[] = [];
  /** Transactions open now, and every one opened so far. */
  open = 0;
  opened = 0;

  readonly unitOfWork = {
    run: async <T>(work: (tx: Transaction) => Promise<T>, _options?: TransactionOptions): Promise<T> => {
      const before = structuredClone(this.tables());
      this.open += 1;
      this.opened += 1;
      try {
        return await work({} as Transaction);
      } catch (error) {
        Object.assign(this, before);
        throw error;
      } finally {
        this.open -= 1;
      }
    },
  } as unknown as UnitOfWork;

  readonly outbox = {
    record: async <Type extends EventType>(_tx: Transaction, type: Type, payload: EventPayload<Type>): Promise<string> => {
      this.events.push({ type, payload });
      return String(this.events.length);
    },
  } as unknown as Outbox;

  private tables() {
    const { users, passwords, credentials, sessions, messageRequests, events, knownDevices } = this;
    return { users, passwords, credentials, sessions, messageRequests, events, knownDevices };
  }

  addUser(fields: Partial<User> & { email: string; role?: Role }, password?: string): User {
    const id = this.users.length + 1;
    const user: User = {
      id,
      publicId: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
      name: 'Test Person',
      phone: null,
      role: 'customer',
      banned: false,
      emailVerifiedAt: null,
      phoneVerifiedAt: null,
      addressProvinceId: null,
      addressDistrictId: null,
      addressMunicipalityId: null,
      addressWard: null,
      addressStreet: null,
      addressVersion: 0,
      deletedAt: null,
      trustsNextLogin: false,
      createdAt: new Date('2024-01-01T00:00:00Z'),
      updatedAt: new Date('2024-01-01T00:00:00Z'),
      ...fields,
    };
    this.users.push(user);
    if (password !== undefined) this.passwords.set(id, password);
    return user;
  }

  user(id: number): User {
    return this.users.find((user) => user.id === id)!;
  }

  eventsOf(type: EventType): unknown[] {
    return this.events.filter((event) => event.type === type).map((event) => event.payload);
  }
}

const live = (user: User) => user.deletedAt === null;

export function fakeUsersRepository(db: InMemoryDatabase): UsersRepository {
  return usersTable(db) as unknown as UsersRepository;
}

export function fakeLoginAccountsRepository(db: InMemoryDatabase): LoginAccountsRepository {
  return usersTable(db) as unknown as LoginAccountsRepository;
}

export function fakeAdminsRepository(db: InMemoryDatabase): AdminsRepository {
  return usersTable(db) as unknown as AdminsRepository;
}

export function fakeUserDirectoryRepository(db: InMemoryDatabase): UserDirectoryRepository {
  return usersTable(db) as unknown as UserDirectoryRepository;
}

export function fakeAccountMatchesRepository(db: InMemoryDatabase): AccountMatchesRepository {
  return usersTable(db) as unknown as AccountMatchesRepository;
}

/** The users table's readers and writer over one in-memory table (each fake above is this object, typed as its reader). */
function usersTable(db: InMemoryDatabase) {
  // Rows come back as copies, as from a database: a later write does not change what was read.
  const find = (matches: (user: User) => boolean) => {
    const user = db.users.find((row) => live(row) && matches(row));
    return user ? { ...user } : null;
  };
  const account = (user: User | null): UserAccount | null => (user ? { user, passwordHash: db.passwords.get(user.id) ?? null } : null);
  const match = (users: User[]): AccountMatch => ({
    matches: users.length,
    id: users[0]?.id ?? null,
    phone: users[0]?.phone ?? null,
    phoneVerified: users.some((user) => user.phoneVerifiedAt !== null),
  });
  const fake = {
    findLiveByEmail: async (email: string) => find((user) => user.email === email.toLowerCase()),
    findLiveByPhone: async (phone: string) => find((user) => user.phone === phone),
    findLiveByVerifiedPhone: async (phone: string) => find((user) => user.phone === phone && user.phoneVerifiedAt !== null),
    findLiveByPublicId: async (publicId: string) => find((user) => user.publicId === publicId.toLowerCase()),
    findLiveById: async (id: number) => find((user) => user.id === id),
    findLiveAccountById: async (id: number) => account(find((user) => user.id === id)),
    findLiveAccountByPublicId: async (publicId: string) => account(find((user) => user.publicId === publicId.toLowerCase())),
    findLoginAccount: async (email: string): Promise<LoginAccount | null> => account(find((user) => user.email === email.toLowerCase())),
    findCallerAccount: async (publicId: string): Promise<LoginAccount | null> => account(find((user) => user.publicId === publicId.toLowerCase())),
    lockBootstrap: async () => undefined,
    lockActiveAdmins: async () => undefined,
    countActiveAdmins: async () => db.users.filter((user) => live(user) && user.role === 'admin' && !user.banned).length,
    existsLiveAdmin: async () => db.users.some((user) => live(user) && user.role === 'admin'),
    create: async (user: NewUser) => ({ ...db.addUser({ publicId: user.publicId, email: user.email.toLowerCase(), name: user.name, role: user.role, phone: user.phone ?? null }) }),
    update: async (id: number, changes: UserChanges) => {
      const { address: _address, ...columns } = changes;
      return { ...Object.assign(db.user(id), columns) };
    },
    softDelete: async (id: number) => {
      const deletedAt = new Date();
      db.user(id).deletedAt = deletedAt;
      return deletedAt;
    },
    trustNextLogin: async (_tx: Transaction, id: number) => {
      db.user(id).trustsNextLogin = true;
    },
    accountByEmail: async (email: string) => match(db.users.filter((user) => live(user) && user.email === email.toLowerCase())),
    accountByVerifiedPhone: async (phone: string) => match(db.users.filter((user) => live(user) && user.phone === phone && user.phoneVerifiedAt !== null)),
    takeLoginTrust: async (_tx: Transaction, id: number) => {
      const trusted = db.user(id).trustsNextLogin;
      db.user(id).trustsNextLogin = false;
      return trusted;
    },
  };
  return fake;
}

export function fakeProviderAccountsRepository(db: InMemoryDatabase): ProviderAccountsRepository {
  const fake = {
    setPasswordHash: async (_tx: Transaction, userId: number, passwordHash: string) => {
      db.passwords.set(userId, passwordHash);
    },
  };
  return fake;
}

export function fakeSessionsRepository(db: InMemoryDatabase): SessionsRepository {
  const fake = {
    // Most recently used first: the last created, as no fake refresh moves lastUsedAt.
    open: async (_tx: Transaction, session: NewSession, { keep, reason, now }: OverCap): Promise<OpenedSessionRow> => {
      const others = db.sessions.filter((row) => row.userId === session.userId && row.revokedAt === null && row.expiresAt > now).reverse();
      const ended = others.slice(keep);
      for (const row of ended) Object.assign(row, { revokedAt: now, revokedReason: reason });
      db.sessions.push({ ...session, revokedAt: null, revokedReason: null });
      const device = `${session.userId}:${session.deviceId ?? ''}`;
      const deviceIsNew = !db.knownDevices.has(device);
      if (deviceIsNew) db.knownDevices.set(device, null);
      return { ended: ended.map((row) => row.id), deviceIsNew };
    },
    // A token is found by the hash its session holds now; a rotation replaces it (no rotated ones are kept).
    findPresented: async (presentedHash: string, surface: string, now: Date): Promise<PresentedToken | null> => {
      const session = db.sessions.find((row) => row.refreshTokenHash === presentedHash);
      if (!session) return null;
      return {
        sessionId: session.id,
        userId: session.userId,
        rotatedAt: null,
        amr: [...session.amr],
        live: session.surface === surface && session.revokedAt === null && session.expiresAt > now,
      };
    },
    rotate: async (rotation: Rotation) => {
      const session = db.sessions.find((row) => row.refreshTokenHash === rotation.presentedHash);
      if (!session) return false;
      Object.assign(session, { refreshTokenHash: rotation.nextHash, expiresAt: rotation.expiresAt });
      return true;
    },
    revoke: async (sessionId: string, reason: SessionRevokeReason) => {
      const session = db.sessions.find((row) => row.id === sessionId && row.revokedAt === null);
      if (session) Object.assign(session, { revokedAt: new Date(), revokedReason: reason });
      return session !== undefined;
    },
    findLiveOfUser: async (userId: number, now: Date): Promise<SessionRecord[]> =>
      db.sessions
        .filter((row) => row.userId === userId && row.revokedAt === null && row.expiresAt > now)
        .map((row) => ({
          id: row.id,
          deviceId: row.deviceId,
          deviceType: row.deviceType,
          deviceName: row.deviceName,
          createdAt: row.createdAt ?? now,
          lastUsedAt: row.createdAt ?? now,
        }))
        .reverse(),
    revokeLiveOfUser: async (_tx: Transaction, userId: number, sessionId: string, reason: SessionRevokeReason, now: Date) => {
      const session = db.sessions.find((row) => row.id === sessionId.toLowerCase() && row.userId === userId && row.revokedAt === null && row.expiresAt > now);
      if (session) Object.assign(session, { revokedAt: now, revokedReason: reason });
      return session !== undefined;
    },
    lockLogins: async () => undefined,
    revokeAllOfUser: async (_tx: Transaction, userId: number, reason: SessionRevokeReason, keep?: string) => {
      const ended = db.sessions.filter((row) => row.userId === userId && row.revokedAt === null && row.id !== keep);
      for (const session of ended) Object.assign(session, { revokedAt: new Date(), revokedReason: reason });
      return ended.map((session) => session.id);
    },
  };
  return fake as unknown as SessionsRepository;
}

export function fakeKnownDevicesRepository(db: InMemoryDatabase): KnownDevicesRepository {
  const fake = {
    lockAlerts: async () => undefined,
    countAlertedSince: async (_tx: Transaction, userId: number, since: Date) =>
      [...db.knownDevices].filter(([key, alertedAt]) => key.startsWith(`${userId}:`) && alertedAt !== null && alertedAt > since).length,
    markAlerted: async (_tx: Transaction, userId: number, deviceId: string, at: Date) => {
      db.knownDevices.set(`${userId}:${deviceId}`, at);
    },
  };
  return fake;
}

export function fakeCredentialsRepository(db: InMemoryDatabase): CredentialsRepository {
  const unfinished = (row: VerificationCredential) => row.redeemedAt === null && row.retiredAt === null;
  const fake = {
    lockPerson: async () => undefined,
    lockNobody: async () => undefined,
    findByTokenHash: async (tokenHash: string) => db.credentials.find((row) => row.tokenHash === tokenHash) ?? null,
    findById: async (id: number) => db.credentials.find((row) => row.id === id) ?? null,
    unfinishedOf: async (userId: number, purposes: readonly CredentialPurpose[]) =>
      db.credentials.filter((row) => row.userId === userId && purposes.includes(row.purpose) && unfinished(row)).reverse(),
    countIssuedSince: async (_tx: Transaction, userId: number, purposes: readonly CredentialPurpose[], since: Date) =>
      db.credentials.filter((row) => row.userId === userId && purposes.includes(row.purpose) && row.createdAt >= since).length,
    create: async (_tx: Transaction, credential: NewCredential) => {
      const row: VerificationCredential = {
        id: db.credentials.length + 1,
        tokenHash: null,
        otpHash: null,
        attempts: 0,
        redeemedAt: null,
        retiredAt: null,
        ...credential,
      };
      db.credentials.push(row);
      return row;
    },
    retireUnfinished: async (_tx: Transaction, userId: number, purposes: readonly CredentialPurpose[], now: Date) => {
      const rows = db.credentials.filter((row) => row.userId === userId && purposes.includes(row.purpose) && unfinished(row));
      for (const row of rows) row.retiredAt = now;
      return rows.length;
    },
    redeem: async (_tx: Transaction, id: number, now: Date) => {
      const row = db.credentials.find((candidate) => candidate.id === id && unfinished(candidate) && candidate.expiresAt > now);
      if (row) row.redeemedAt = now;
      return row !== undefined;
    },
    recordFailedAttempt: async (_tx: Transaction, id: number, attempts: number, retire: boolean, now: Date) => {
      const row = db.credentials.find((candidate) => candidate.id === id)!;
      Object.assign(row, { attempts, ...(retire && { retiredAt: now }) });
    },
    recordNoAttempt: async () => undefined,
  };
  return fake as unknown as CredentialsRepository;
}

export function fakeMessageRequestsRepository(db: InMemoryDatabase): MessageRequestsRepository {
  const fake = {
    add: async (request: MessageRequest) => {
      db.messageRequests.push(request);
    },
  };
  return fake as unknown as MessageRequestsRepository;
}

/** A login back-off that never refuses (its rules have their own spec and HTTP tests). */
export function fakeLoginBackoff(): LoginBackoffService {
  const attempt = <T>(_email: string, check: () => Promise<T | undefined>) => check();
  return { attempt, succeeded: async () => undefined } as unknown as LoginBackoffService;
}

/** A password hasher without argon2's cost: `hashed:<password>`; `busy` answers 503 as a full queue does. */
export function fakePasswordHasher(state: { busy?: boolean } = {}): PasswordHasher {
  const run = async <T>(work: () => T): Promise<T> => {
    if (state.busy) throw hashingBusy();
    return work();
  };
  const fake = {
    hash: (password: string) => run(() => `hashed:${password}`),
    verify: (hash: string, password: string) => run(() => hash === `hashed:${password}`),
    verifyDecoy: (password: string) => run(() => (void password, false as const)),
  };
  return fake as unknown as PasswordHasher;
}

/** The revocation store every verifier checks: the ids written to it. */
export function fakeRevocations(): SessionRevocations & { revoked: string[] } {
  const revoked: string[] = [];
  const fake = {
    revoked,
    revoke: async (sessionId: string) => {
      revoked.push(sessionId);
    },
  };
  return fake as unknown as SessionRevocations & { revoked: string[] };
}
