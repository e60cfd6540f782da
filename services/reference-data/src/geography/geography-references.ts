import { Injectable } from '@nestjs/common';
import { AppError, type ErrorCode } from '@school/http';
import { ADDRESS_REFERENCES, type GeographyLevel, RpcClient } from '@school/messaging';
import type { Transaction } from '@school/service';
import { GeographyRepository } from './geography.repository.js';

/**
 * "Referenced" of spec §3.3: a child row, the school profile, or a person's address (soft-deleted
 * people included), checked at the moment of the write. Children, the profile and the claims of
 * addresses being written are read here; committed addresses are identity's, asked over RabbitMQ
 * (ADDRESS_REFERENCES). Both are asked while the write holds the row's lock. No answer rejects with
 * RpcUnavailableError, which the HTTP layer answers 503: never a delete or rename on a guess.
 */
@Injectable()
export class GeographyReferences {
  constructor(
    private readonly repository: GeographyRepository,
    private readonly rpc: RpcClient,
  ) {}

  /** Throws `refusal` (GEOGRAPHY_IN_USE or GEOGRAPHY_RENAME_REFERENCED) when the row is referenced. */
  async assertUnreferenced(level: GeographyLevel, id: number, refusal: ErrorCode, tx: Transaction): Promise<void> {
    if (await this.repository.hasLocalReferences(level, id, tx)) throw new AppError(refusal);
    const { referenced } = await this.rpc.call(ADDRESS_REFERENCES, { level, id });
    if (referenced) throw new AppError(refusal);
  }
}
