import { Body, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Principal, Surface } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storageKey } from '../storage/storage-key.js';
import { type SignedUrlQuery, signedUrlQuery } from './dto/signed-url.query.js';
import { type SignedUrlsBody, signedUrlsBody } from './dto/signed-urls.body.js';
import { parseUploadQuery } from './dto/upload.query.js';
import { DeliveryWatch } from './delivery-watch.js';
import { sendFile } from './file-reply.js';
import { FILE_FIELD, multipartFile } from './multipart-file.js';
import type { UploadLimits } from './upload-limits.js';
import type { UploadAllowance, UploadsService } from './uploads.service.js';
import { urlMessage } from './url-message.js';

export const UPLOAD_MESSAGE = 'File uploaded';

/**
 * The routes both surfaces share (spec §4.4, §4.5): upload, signed URL, batch signed URLs and the
 * file proxy. Each surface's controller gives its path, its token surface and its size limit.
 */
export abstract class UploadRoutes {
  protected constructor(
    protected readonly uploads: UploadsService,
    protected readonly limits: UploadLimits,
    protected readonly surface: Surface,
  ) {}

  /** The surface's size limit; the storage quota binds customers only. */
  protected get allowance(): UploadAllowance {
    return this.surface === 'admin'
      ? { maxBytes: this.limits.adminMaxFileBytes, quotaBytes: undefined }
      : { maxBytes: this.limits.mobileMaxFileBytes, quotaBytes: this.limits.customerQuotaBytes };
  }

  @Post()
  @HttpCode(200)
  async upload(@CurrentPrincipal() caller: Principal, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: Record<string, unknown>) {
    const delivery = new DeliveryWatch(reply.raw);
    const options = parseUploadQuery(query, this.surface);
    const file = await multipartFile(request, FILE_FIELD, this.allowance.maxBytes);
    const result = await this.uploads.upload(caller, options, file, this.allowance);
    delivery.undoUnlessDelivered(() => this.uploads.discardUndelivered([result.relativePath]));
    return success(UPLOAD_MESSAGE, result);
  }

  @Get('signed-url/*')
  async signedUrl(@CurrentPrincipal() caller: Principal, @Param('*') key: string, @Query(new ZodPipe(signedUrlQuery)) query: SignedUrlQuery) {
    const url = await this.uploads.signedUrl(caller, storageKey(key), query.expiresIn);
    return success(urlMessage(url), url);
  }

  @Post('signed-urls')
  @HttpCode(200)
  async signedUrls(@CurrentPrincipal() caller: Principal, @Body(new ZodPipe(signedUrlsBody)) body: SignedUrlsBody) {
    return success('URLs resolved', await this.uploads.signedUrls(caller, body.keys.map(storageKey), body.expiresIn));
  }

  @Get('file/*')
  async file(@CurrentPrincipal() caller: Principal, @Param('*') key: string, @Headers('range') range: string | undefined, @Res() reply: FastifyReply) {
    const checked = storageKey(key);
    const opened = await this.uploads.openOwned(caller, checked, range);
    return sendFile(reply, checked, opened.file, opened.range);
  }
}
