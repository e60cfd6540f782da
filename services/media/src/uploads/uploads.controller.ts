import { Controller, Inject, Query, Req, Res } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal } from '@school/auth/nest';
import { ADMIN_UPLOAD_ROUTES as ROUTES, FILES_FIELD, type ResponseOf } from '@school/contracts';
import { success } from '@school/http';
import { Route } from '@school/service';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DeliveryWatch } from './delivery-watch.js';
import { parseUploadQuery } from './dto/upload.query.js';
import { multipartFiles } from './multipart-file.js';
import { UPLOAD_LIMITS, type UploadLimits } from './upload-limits.js';
import { surfaceUploadHandlers } from './upload-routes.js';
import { UploadsService } from './uploads.service.js';

/** Spec §4.4: the routes of ADMIN_UPLOAD_ROUTES. */
@Controller()
export class UploadsController extends surfaceUploadHandlers(ROUTES, 'admin') {
  constructor(uploads: UploadsService, @Inject(UPLOAD_LIMITS) limits: UploadLimits) {
    super(uploads, limits);
  }

  @Route(ROUTES.uploadMultiple)
  async uploadMultiple(
    @CurrentPrincipal() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: Record<string, unknown>,
  ): Promise<ResponseOf<typeof ROUTES.uploadMultiple>> {
    const delivery = new DeliveryWatch(reply.raw);
    const options = parseUploadQuery(query, ROUTES.uploadMultiple.query);
    const files = multipartFiles(request, FILES_FIELD, this.allowance.maxBytes);
    const results = await this.uploads.uploadMany(caller, options, files, this.allowance, delivery.abandoned);
    delivery.undoUnlessDelivered(() => this.uploads.discardUndelivered(results.map((result) => result.relativePath)));
    return success('Files uploaded', results);
  }
}
