import { Controller, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal, RequireSurface } from '@school/auth/nest';
import { success } from '@school/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DeliveryWatch } from './delivery-watch.js';
import { parseUploadQuery } from './dto/upload.query.js';
import { FILES_FIELD, multipartFiles } from './multipart-file.js';
import { UPLOAD_LIMITS, type UploadLimits } from './upload-limits.js';
import { UploadRoutes } from './upload-routes.js';
import { UploadsService } from './uploads.service.js';

/** Spec §4.4: uploads of the administrator surface (admin-surface tokens only, contract §4). */
@Controller('api/upload')
@RequireSurface('admin')
export class UploadsController extends UploadRoutes {
  constructor(uploads: UploadsService, @Inject(UPLOAD_LIMITS) limits: UploadLimits) {
    super(uploads, limits, 'admin');
  }

  @Post('multiple')
  @HttpCode(200)
  async uploadMultiple(
    @CurrentPrincipal() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: Record<string, unknown>,
  ) {
    const delivery = new DeliveryWatch(reply.raw);
    const options = parseUploadQuery(query, 'admin');
    const files = multipartFiles(request, FILES_FIELD, this.allowance.maxBytes);
    const results = await this.uploads.uploadMany(caller, options, files, this.allowance);
    delivery.undoUnlessDelivered(() => this.uploads.discardUndelivered(results.map((result) => result.relativePath)));
    return success('Files uploaded', results);
  }
}
