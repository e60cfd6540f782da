import { Inject, Injectable, Optional } from '@nestjs/common';
import { isSerializationFailure } from '@school/prisma';

declare const OPEN_TRANSACTION: unique symbol;

/**
 * An open database transaction, as a service hands it from one repository call to the next. It
 * offers nothing to call: only a repository runs statements in it, through `clientOf`.
 */
export interface Transaction {
  readonly [OPEN_TRANSACTION]: true;
}

export type IsolationLevel = 'ReadCommitted' | 'RepeatableRead' | 'Serializable';

export interface TransactionOptions {
  /** Postgres' default (read committed) when unset. */
  isolationLevel?: IsolationLevel;
  /**
   * How many times at most the work runs again, in a new transaction, after losing to a concurrent
   * one (serialization failure, deadlock: `isSerializationFailure`). Default 0. The work must then
   * be safe to repeat: everything it wrote in the database was rolled back, nothing else was.
   */
  serializationRetries?: number;
  /**
   * Overrides the configured transaction timeout, for work done once at start-up that must not
   * end the process because the machine is slow (it serves no request meanwhile).
   */
  timeoutMs?: number;
}

/** What the unit of work needs of a service's generated Prisma client. */
export interface TransactionalClient {
  $transaction<R>(work: (tx: unknown) => Promise<R>, options?: { isolationLevel?: IsolationLevel; maxWait?: number; timeout?: number }): Promise<R>;
}

/** The service's Prisma client, as DatabaseModule provides it. */
export const PRISMA_CLIENT = Symbol('PRISMA_CLIENT');

/**
 * DATABASE_TRANSACTION_MAX_WAIT_MS and DATABASE_TRANSACTION_TIMEOUT_MS: a transaction that cannot
 * start or finish within them fails with P2028, which the error mapper answers 503 with Retry-After.
 */
export interface TransactionLimits {
  maxWaitMs: number;
  timeoutMs: number;
}

export const TRANSACTION_LIMITS = Symbol('TRANSACTION_LIMITS');

/**
 * The one way a service opens a transaction: `run(work)` commits when `work` resolves and rolls
 * back when it throws. Services pass the Transaction to repositories and never see a client.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @Inject(PRISMA_CLIENT) private readonly client: TransactionalClient,
    @Optional() @Inject(TRANSACTION_LIMITS) private readonly limits?: TransactionLimits,
  ) {}

  async run<T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const settings = {
      ...(options.isolationLevel !== undefined && { isolationLevel: options.isolationLevel }),
      ...(this.limits && { maxWait: this.limits.maxWaitMs, timeout: this.limits.timeoutMs }),
      ...(options.timeoutMs !== undefined && { maxWait: Math.max(options.timeoutMs, this.limits?.maxWaitMs ?? 0), timeout: options.timeoutMs }),
    };
    for (let retriesLeft = options.serializationRetries ?? 0; ; retriesLeft -= 1) {
      try {
        return await this.client.$transaction((tx) => work(tx as Transaction), settings);
      } catch (error) {
        if (retriesLeft <= 0 || !isSerializationFailure(error)) throw error;
      }
    }
  }
}

/**
 * For repositories only: the client a statement runs on, from the caller's Transaction, or the
 * pool outside one (`clientOf<Db>(tx ?? this.prisma)`). `Client` is the service's
 * `Prisma.TransactionClient` (its PrismaClient satisfies it too), or what the caller needs of it.
 */
export function clientOf<Client>(source: Transaction | Client): Client {
  return source as Client;
}
