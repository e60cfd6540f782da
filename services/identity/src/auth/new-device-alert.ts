import { Injectable } from '@nestjs/common';
import { Outbox } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import { KnownDevicesRepository } from '../sessions/known-devices.repository.js';
import type { DeviceInfo } from '../sessions/sessions.service.js';
import { UsersRepository } from '../accounts/users.repository.js';

/** Who signed in, as the email names them, and whether their account was marked to trust its next login when it was read. */
export interface SigningInUser {
  id: number;
  publicId: string;
  email: string;
  name: string;
  trustsNextLogin: boolean;
}

/** Contract §10: at most this many new-device emails go to one account in an hour; logins beyond it send nothing. */
export const NEW_DEVICE_ALERT_CAP = { emails: 3, windowMs: 60 * 60_000 } as const;

/**
 * Contract §10: a successful login from a deviceId the account never logged in from (none sent is
 * the empty one; the session's opening says whether it was new) emails the holder once, unless it
 * is the first login after a redeemed invitation or password reset, or NEW_DEVICE_ALERT_CAP emails
 * went to the account within the hour (counted under the account's lock, so concurrent logins on
 * any replica cannot overshoot). Runs in the login transaction; the email leaves through the
 * outbox, so a slow or failing mail system never delays or fails a login.
 */
@Injectable()
export class NewDeviceAlert {
  constructor(
    private readonly devices: KnownDevicesRepository,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
  ) {}

  async onLogin(tx: Transaction, user: SigningInUser, device: DeviceInfo | undefined, deviceIsNew: boolean, at: Date): Promise<void> {
    const deviceId = device?.deviceId ?? '';
    // Taken by every login that found it set: the mark covers only the first one after it was set.
    // One that read it unset acts as if it came before the mark (invitation or reset) was written.
    const trusted = user.trustsNextLogin && (await this.users.takeLoginTrust(tx, user.id));
    if (!deviceIsNew || trusted) return;
    await this.devices.lockAlerts(tx, user.id);
    const sent = await this.devices.countAlertedSince(tx, user.id, new Date(at.getTime() - NEW_DEVICE_ALERT_CAP.windowMs));
    if (sent >= NEW_DEVICE_ALERT_CAP.emails) return;
    await this.devices.markAlerted(tx, user.id, deviceId, at);
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
