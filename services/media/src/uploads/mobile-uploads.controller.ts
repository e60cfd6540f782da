import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { CurrentPrincipal, RequireSurface } from '@school/auth/nest';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import type { FastifyRequest } from 'fastify';
import { storageKey } from '../storage/storage-key.js';
import { type SignedUrlQuery, signedUrlQuery } from './dto/signed-url.query.js';
import { parseUploadQuery } from './dto/upload.query.js';
import { FILE_FIELD, multipartFile } from './multipart-file.js';
import { UPLOAD_LIMITS, type UploadLimits } from './upload-limits.js';
import { UploadsService } from './uploads.service.js';
import { urlMessage } from './url-message.js';

/** Spec §4.5: uploads of the customer surface (customer tokens only, contract §4). */
@Controller('api/mobile/uploads')
@RequireSurface('mobile')
export class MobileUploadsController {
  constructor(
    private readonly uploads: UploadsService,
    @Inject(UPLOAD_LIMITS) private readonly limits: UploadLimits,
  ) {}

  @Post()
  @HttpCode(200)
  async upload(@CurrentPrincipal() caller: Principal, @Req() request: FastifyRequest, @Query() query: Record<string, unknown>) {
    const options = parseUploadQuery(query, 'mobile');
    const file = await multipartFile(request, FILE_FIELD, this.limits.mobileMaxFileBytes);
    return success('File uploaded', await this.uploads.upload(caller, options, file, this.limits.mobileMaxFileBytes));
  }

  @Get('signed-url/*')
  signedUrl(@CurrentPrincipal() caller: Principal, @Param('*') key: string, @Query(new ZodPipe(signedUrlQuery)) query: SignedUrlQuery) {
    const url = this.uploads.signedUrl(caller, storageKey(key), query.expiresIn);
    return success(urlMessage(url), url);
  }
}
