import { AUTH_PREFIX, BOOTSTRAP_ADMIN, invitedPerson, type Surface } from '../../test/support/people.js';
import type { RunningSystem } from '@school/system-harness';
import type { Principal } from './plans.js';

type Role = 'admin' | 'staff' | 'customer';

interface Account {
  surface: Surface;
  email: string;
  password: string;
  publicId: string;
  accessToken: string;
}

const SURFACE: Record<Role, Surface> = { admin: 'admin', staff: 'admin', customer: 'mobile' };
const STARTING_PASSWORD = 'Fuzz-Start1!';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A signed-in account of every role, and the tokens the gateway must refuse. Requests of the run may
 * log an account out or change its password: `renew` signs every account in again.
 */
export class Principals {
  private constructor(
    private readonly gatewayUrl: string,
    private readonly accounts: Record<Role, Account>,
  ) {}

  static async create(system: RunningSystem): Promise<Principals> {
    const admin = await login(system.gatewayUrl, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    const invited = async (role: 'staff' | 'customer'): Promise<Account> => {
      const person = await invitedPerson(system, admin.accessToken, role, STARTING_PASSWORD);
      return { surface: SURFACE[role], email: person.email, password: STARTING_PASSWORD, publicId: person.publicId, accessToken: person.accessToken };
    };
    return new Principals(system.gatewayUrl, { admin, staff: await invited('staff'), customer: await invited('customer') });
  }

  /** The publicIds of the run's own accounts: never offered to requests that could ban or delete them. */
  publicIds(): string[] {
    return Object.values(this.accounts).map((account) => account.publicId);
  }

  /** The Authorization header of a principal, or undefined for an anonymous request. */
  authorization(principal: Principal): string | undefined {
    const admin = this.accounts.admin.accessToken;
    switch (principal) {
      case 'anonymous':
        return undefined;
      case 'admin':
      case 'staff':
      case 'customer':
        return `Bearer ${this.accounts[principal].accessToken}`;
      case 'garbage':
        return 'Bearer not.a.jwt';
      case 'alg-none': {
        const claims = JSON.parse(Buffer.from(admin.split('.')[1]!, 'base64url').toString('utf8')) as object;
        return `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
      }
      case 'tampered': {
        const [header, payload, signature] = admin.split('.') as [string, string, string];
        const middle = Math.floor(signature.length / 2);
        return `Bearer ${header}.${payload}.${signature.slice(0, middle)}${signature[middle] === 'A' ? 'B' : 'A'}${signature.slice(middle + 1)}`;
      }
      case 'basic':
        return `Basic ${Buffer.from(`${BOOTSTRAP_ADMIN.email}:${BOOTSTRAP_ADMIN.password}`).toString('base64')}`;
    }
  }

  /** The principal's password changed through a request of the run. */
  passwordChanged(principal: Principal, password: string): void {
    if (principal === 'admin' || principal === 'staff' || principal === 'customer') this.accounts[principal].password = password;
  }

  async renew(): Promise<void> {
    for (const role of Object.keys(this.accounts) as Role[]) {
      const account = this.accounts[role];
      this.accounts[role] = await login(this.gatewayUrl, role, account.email, account.password);
    }
  }
}

async function login(gatewayUrl: string, role: Role, email: string, password: string): Promise<Account> {
  const surface = SURFACE[role];
  const response = await fetch(`${gatewayUrl}${AUTH_PREFIX[surface]}/login/email`, {
    method: 'POST',
    // A fresh client address each time, so the login throttles of contract §4 do not refuse the fuzzer itself.
    headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { data: { accessToken: string; user: { publicId: string } } };
  if (response.status !== 200) throw new Error(`the fuzzer's ${role} could not sign in: ${response.status} ${JSON.stringify(body)}`);
  return { surface, email, password, publicId: body.data.user.publicId, accessToken: body.data.accessToken };
}

export function randomAddress(seed = Math.floor(Math.random() * 2 ** 24)): string {
  return `10.${(seed >> 16) & 255}.${(seed >> 8) & 255}.${seed & 255}`;
}
