import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';

/** The devices each account has logged in from; the only place that touches known_devices. */
@Injectable()
export class KnownDevicesRepository {
  /** Records the device; true when the account had never logged in from it (exactly one of concurrent logins sees true). */
  async remember(tx: Transaction, userId: number, deviceId: string, at: Date): Promise<boolean> {
    const { count } = await clientOf<Prisma.TransactionClient>(tx).knownDevice.createMany({
      data: [{ userId, deviceId, firstSeenAt: at }],
      skipDuplicates: true,
    });
    return count === 1;
  }
}
