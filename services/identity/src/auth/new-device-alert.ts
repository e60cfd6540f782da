import { Injectable } from '@nestjs/common';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import { KnownDevicesRepository } from '../sessions/known-devices.repository.js';
import type { DeviceInfo } from '../sessions/sessions.service.js';
import { UsersRepository } from '../accounts/users.repository.js';

/** Who signed in, as the email names them. */
export interface SigningInUser {
  id: number;
  publicId: string;
  email: string;
  name: string;
}

/**
 * Contract §10: a successful login from a deviceId the account never logged in from (none sent is
 * the empty one) emails the holder once, unless it is the first login after a redeemed invitation
 * or password reset. Runs in the login transaction; the email leaves through the outbox, so a slow
 * or failing mail system never delays or fails a login.
 */
@Injectable()
export class NewDeviceAlert {
  constructor(
    private readonly devices: KnownDevicesRepository,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
  ) {}

  async onLogin(tx: Transaction, user: SigningInUser, device: DeviceInfo | undefined, at: Date): Promise<void> {
    const deviceIsNew = await this.devices.remember(tx, user.id, device?.deviceId ?? '', at);
    // Taken on every login: the mark covers only the first one after it was set.
    const trusted = await this.users.takeLoginTrust(tx, user.id);
    if (!deviceIsNew || trusted) return;
    await this.outbox.record(tx, EVENT_TYPES.newDeviceSignedIn, {
      userId: user.publicId,
      email: user.email,
      name: user.name,
      deviceId: device?.deviceId ?? null,
      deviceType: device?.deviceType ?? null,
      deviceName: device?.deviceName ?? null,
      signedInAt: at.toISOString(),
    });
  }
}
