import { Controller, Param, Res } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { ACCOUNT_EXPORT_ROUTES as ROUTES, accountExportFileName, type ResponseOf } from '@school/contracts';
import { PublicIdPipe } from '@school/http/nest';
import { Route } from '@school/service';
import { ExportAccount } from './export-account.js';

interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * Contract §11: the copy is a JSON file, no envelope, named after the UTC date it was made, kept by
 * no cache. Sent as bytes, so its Content-Type stays exactly `application/json` (Fastify adds a
 * charset to a body it serialises itself; JSON is UTF-8 anyway, RFC 8259).
 */
function asDownload<Copy extends { exportedAt: string }>(reply: Reply, copy: Copy): Buffer {
  reply.header('Content-Type', 'application/json');
  reply.header('Content-Disposition', `attachment; filename="${accountExportFileName(new Date(copy.exportedAt))}"`);
  reply.header('Cache-Control', 'no-store');
  return Buffer.from(JSON.stringify(copy), 'utf8');
}

/** Contract §11 export: the routes of ACCOUNT_EXPORT_ROUTES. */
@Controller()
export class AccountExportController {
  constructor(private readonly exportAccount: ExportAccount) {}

  @Route(ROUTES.exportOwnAdmin)
  async ownOnAdminSurface(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: Reply): Promise<Buffer> {
    return asDownload<ResponseOf<typeof ROUTES.exportOwnAdmin>>(reply, await this.exportAccount.ofCaller(principal));
  }

  @Route(ROUTES.exportOwnMobile)
  async ownOnMobileSurface(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: Reply): Promise<Buffer> {
    return asDownload<ResponseOf<typeof ROUTES.exportOwnMobile>>(reply, await this.exportAccount.ofCaller(principal));
  }

  @Route(ROUTES.exportUser)
  async ofUser(@Param('publicId', new PublicIdPipe('USER_NOT_FOUND')) publicId: string, @Res({ passthrough: true }) reply: Reply): Promise<Buffer> {
    return asDownload<ResponseOf<typeof ROUTES.exportUser>>(reply, await this.exportAccount.ofUser(publicId));
  }
}
