import { z } from 'zod';

/** Contract §3 success body around `data`. */
export function successEnvelope<Data extends z.ZodType>(data: Data) {
  return z.object({ message: z.string(), data, errorCode: z.null() });
}

/** Contract §3 paginated list: the success body plus count, currentPage and totalPage. */
export function paginatedEnvelope<Item extends z.ZodType>(item: Item) {
  return z.object({
    message: z.string(),
    data: z.array(item),
    errorCode: z.null(),
    count: z.number().int().min(0),
    currentPage: z.number().int().min(1),
    totalPage: z.number().int().min(0),
  });
}

/** The success body of a route answering `data: null` (delete, logout, password routes). */
export const nullEnvelope = successEnvelope(z.null());

/** A timestamp as the services serialise it (`Date.toJSON`). */
export const timestamp = z.iso.datetime();

/** The `:publicId` of a record: a UUID; any other string names no record (404 of the route). */
export const publicIdParams = z.object({ publicId: z.uuid().describe('publicId of the record') });
