import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * The new-device emails of the devices each account has logged in from; the only place that touches
 * known_devices but the statement that opens a session, which remembers its device
 * (SessionsRepository.open: login is a hot path).
 */
@Injectable()
export class KnownDevicesRepository {
  /** Serialises the new-device emails of one account until `tx` ends, so the count read after it cannot be stale. */
  async lockAlerts(tx: Transaction, userId: number): Promise<void> {
    await clientOf<Prisma.TransactionClient>(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.new_device_alerts'), ${userId}::int)`;
  }

  /** How many of the account's devices had their new-device email sent after `since`. */
  countAlertedSince(tx: Transaction, userId: number, since: Date): Promise<number> {
    return clientOf<Prisma.TransactionClient>(tx).knownDevice.count({ where: { userId, alertedAt: { gt: since } } });
  }

  async markAlerted(tx: Transaction, userId: number, deviceId: string, at: Date): Promise<void> {
    await clientOf<Prisma.TransactionClient>(tx).knownDevice.updateMany({ where: { userId, deviceId }, data: { alertedAt: at } });
  }
}
