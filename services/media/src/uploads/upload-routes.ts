import { Headers, Param, Query, Req, Res } from '@nestjs/common';
import type { Principal, Surface } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { type BodyOf, FILE_FIELD, type QueryOf, type ResponseOf, type SurfaceUploadRoutes } from '@school/contracts';
import { success } from '@school/http';
import { Route, RouteBody, RouteQuery } from '@school/service';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storageKey } from '../storage/storage-key.js';
import { parseUploadQuery } from './dto/upload.query.js';
import { DeliveryWatch } from './delivery-watch.js';
import { sendFile } from './file-reply.js';
import { multipartFile } from './multipart-file.js';
import type { UploadLimits } from './upload-limits.js';
import type { UploadAllowance, UploadsService } from './uploads.service.js';
import { urlMessage } from './url-message.js';

export const UPLOAD_MESSAGE = 'File uploaded';

/**
 * The handlers both surfaces share (spec §4.4, §4.5): upload, signed URL, batch signed URLs and the
 * file proxy, for the routes of one surface's manifest. Each surface's controller extends them.
 */
export function surfaceUploadHandlers(routes: SurfaceUploadRoutes, surface: Surface) {
  abstract class SurfaceUploadHandlers {
    protected constructor(
      protected readonly uploads: UploadsService,
      protected readonly limits: UploadLimits,
    ) {}

    /** The surface's size limit; the storage quota binds customers only. */
    protected get allowance(): UploadAllowance {
      return surface === 'admin'
        ? { maxBytes: this.limits.adminMaxFileBytes, quotaBytes: undefined }
        : { maxBytes: this.limits.mobileMaxFileBytes, quotaBytes: this.limits.customerQuotaBytes };
    }

    @Route(routes.upload)
    async upload(
      @CurrentPrincipal() caller: Principal,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
      @Query() query: Record<string, unknown>,
    ): Promise<ResponseOf<typeof routes.upload>> {
      const delivery = new DeliveryWatch(reply.raw);
      const options = parseUploadQuery(query, routes.upload.query);
      const file = await multipartFile(request, FILE_FIELD, this.allowance.maxBytes);
      const result = await this.uploads.upload(caller, options, file, this.allowance, delivery.abandoned);
      delivery.undoUnlessDelivered(() => this.uploads.discardUndelivered([result.relativePath]));
      return success(UPLOAD_MESSAGE, result);
    }

    @Route(routes.signedUrl)
    async signedUrl(
      @CurrentPrincipal() caller: Principal,
      @Param('*') key: string,
      @RouteQuery() query: QueryOf<typeof routes.signedUrl>,
    ): Promise<ResponseOf<typeof routes.signedUrl>> {
      const url = await this.uploads.signedUrl(caller, storageKey(key), query.expiresIn);
      return success(urlMessage(url), url);
    }

    @Route(routes.signedUrls)
    async signedUrls(@CurrentPrincipal() caller: Principal, @RouteBody() body: BodyOf<typeof routes.signedUrls>): Promise<ResponseOf<typeof routes.signedUrls>> {
      return success('URLs resolved', await this.uploads.signedUrls(caller, body.keys.map(storageKey), body.expiresIn));
    }

    @Route(routes.file)
    async file(@CurrentPrincipal() caller: Principal, @Param('*') key: string, @Headers('range') range: string | undefined, @Res() reply: FastifyReply) {
      const checked = storageKey(key);
      const opened = await this.uploads.openOwned(caller, checked, range);
      return sendFile(reply, checked, opened.file, opened.range);
    }
  }
  return SurfaceUploadHandlers;
}
