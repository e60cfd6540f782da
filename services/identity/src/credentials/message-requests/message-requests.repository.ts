import { Injectable } from '@nestjs/common';
import { currentTraceparent } from '@school/telemetry';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { CredentialPurpose } from '../credential-state.js';
import type { MessageRequest } from './message-request.js';

export interface PendingMessageRequest {
  id: number;
  request: MessageRequest;
  /** The trace of the request that took it (null outside a trace). */
  traceparent: string | null;
}

interface Row {
  id: number;
  purpose: CredentialPurpose;
  email: string | null;
  phone: string | null;
  traceparent: string | null;
}

/** The message_requests table: what the public routes took, until the worker has dealt with it. */
@Injectable()
export class MessageRequestsRepository {
  /** The table, for the claim written in SQL. */
  private readonly table: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.table = Prisma.raw(`${schema.sql}.message_requests`);
  }

  async add(request: MessageRequest): Promise<void> {
    await this.prisma.messageRequest.create({
      data: {
        purpose: request.purpose,
        email: request.by === 'email' ? request.email : null,
        phone: request.by === 'phone' ? request.phone : null,
        traceparent: currentTraceparent(),
      },
    });
  }

  /** The oldest request no other transaction holds, locked until `tx` ends (replicas share the table). */
  async claimOldest(tx: Transaction): Promise<PendingMessageRequest | null> {
    const [row] = await clientOf<Prisma.TransactionClient>(tx).$queryRaw<Row[]>`
      SELECT id, purpose::text AS purpose, email, phone, traceparent FROM ${this.table} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`;
    return row ? { id: row.id, request: toRequest(row), traceparent: row.traceparent } : null;
  }

  async remove(tx: Transaction, id: number): Promise<void> {
    await clientOf<Prisma.TransactionClient>(tx).messageRequest.deleteMany({ where: { id } });
  }

  /** One more failure of the request; at `limit` failures it is deleted. True when it was. */
  async recordFailure(id: number, limit: number): Promise<boolean> {
    const row = await this.prisma.messageRequest.update({ where: { id }, data: { attempts: { increment: 1 } } });
    if (row.attempts < limit) return false;
    await this.prisma.messageRequest.deleteMany({ where: { id } });
    return true;
  }

  /** Drops requests taken before `cutoff` that were never dealt with (a message that late would be stale). */
  async removeOlderThan(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.messageRequest.deleteMany({ where: { createdAt: { lt: cutoff } } });
    return count;
  }
}

function toRequest(row: Row): MessageRequest {
  if (row.purpose === CredentialPurpose.email_verification && row.email !== null) return { purpose: row.purpose, by: 'email', email: row.email };
  if (row.purpose === CredentialPurpose.password_reset && row.email !== null) return { purpose: row.purpose, by: 'email', email: row.email };
  if (row.purpose === CredentialPurpose.password_reset && row.phone !== null) return { purpose: row.purpose, by: 'phone', phone: row.phone };
  throw new Error(`message request ${row.id} names no purpose and address it can serve`);
}
