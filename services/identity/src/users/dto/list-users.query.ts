import { listQueryShape, singleLine } from '@school/http';
import { z } from 'zod';

/** Contract §5 list parameters for `GET /api/users`: rows by id, `search` over name and email. */
export const listUsersQuery = z.strictObject({
  ...listQueryShape({ defaultOrder: 'asc' }),
  search: singleLine(0, 255).optional(),
});

export type ListUsersQuery = z.output<typeof listUsersQuery>;
