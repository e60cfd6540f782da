import { Controller, Headers, Res } from '@nestjs/common';
import { AUDIT_NEXT_CURSOR_HEADER, AUDIT_ROUTES as ROUTES, type QueryOf, type ResponseOf } from '@school/contracts';
import { Route, RouteQuery } from '@school/service';
import { auditCsv, prefersCsv } from './audit-csv.js';
import { ListEntries } from './use-cases/list-entries.js';

interface HeaderReply {
  header(name: string, value: string): unknown;
}

/** Contract §13: the route of AUDIT_ROUTES; read-only (no route changes or deletes an entry). */
@Controller()
export class AuditEntriesController {
  constructor(private readonly listEntries: ListEntries) {}

  /** JSON by default; `Accept: text/csv` gets the same page as CSV and the next cursor in X-Next-Cursor. */
  @Route(ROUTES.list)
  async list(
    @RouteQuery() query: QueryOf<typeof ROUTES.list>,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: HeaderReply,
  ): Promise<ResponseOf<typeof ROUTES.list> | string> {
    const page = await this.listEntries.execute(query);
    reply.header('vary', 'Accept');
    if (!prefersCsv(accept)) return { message: 'Audit entries', data: page.entries, errorCode: null, nextCursor: page.nextCursor };
    reply.header('content-type', 'text/csv; charset=utf-8');
    if (page.nextCursor) reply.header(AUDIT_NEXT_CURSOR_HEADER, page.nextCursor);
    return auditCsv(page.entries);
  }
}
