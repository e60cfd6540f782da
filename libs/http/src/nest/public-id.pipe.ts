import type { PipeTransform } from '@nestjs/common';
import { AppError } from '../app-error.js';
import type { ErrorCode } from '@school/contracts';

const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `@Param('publicId', new PublicIdPipe('USER_NOT_FOUND'))`: a public id is a UUID, in any letter
 * case. One that is not names no record: the record's 404 at the edge, before any query (Postgres
 * would refuse the uuid cast). A valid one is handed on in lower case, as it is stored.
 */
export class PublicIdPipe implements PipeTransform<unknown, string> {
  constructor(private readonly notFound: ErrorCode) {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || !PUBLIC_ID.test(value)) throw new AppError(this.notFound);
    return value.toLowerCase();
  }
}
