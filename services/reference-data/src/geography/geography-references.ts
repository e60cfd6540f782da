import { Injectable } from '@nestjs/common';
import { AppError, type ErrorCode } from '@school/http';
import type { Transaction } from '@school/service';
import type { GeographyLevel } from './geography-level.js';
import { GeographyRepository } from './geography.repository.js';

/**
 * "Referenced" of spec §3.3: a child row, the school profile, a person's address (soft-deleted
 * people included) or a live claim of an address being written, checked at the moment of the
 * write, while it holds the row's lock. All of it is reference-data's own: addresses arrive as
 * identity's events (GeographyUsages), so no other service is asked.
 */
@Injectable()
export class GeographyReferences {
  constructor(private readonly repository: GeographyRepository) {}

  /** Throws `refusal` (GEOGRAPHY_IN_USE or GEOGRAPHY_RENAME_REFERENCED) when the row is referenced. */
  async assertUnreferenced(level: GeographyLevel, id: number, refusal: ErrorCode, tx: Transaction): Promise<void> {
    if (await this.repository.hasLocalReferences(level, id, tx)) throw new AppError(refusal);
  }
}
