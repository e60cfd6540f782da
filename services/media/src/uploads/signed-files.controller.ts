import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { storageKey } from '../storage/storage-key.js';
import { sendFile } from './file-reply.js';
import { UploadsService } from './uploads.service.js';

/**
 * Contract §8, local driver: the file behind a signed URL, without a bearer token, until the URL
 * expires (403 after it, or for any tampered part); `public/` files at a permanent URL.
 */
@Controller('api/files/signed')
export class SignedFilesController {
  constructor(private readonly uploads: UploadsService) {}

  @Get('*')
  async serve(
    @Param('*') key: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Headers('range') range: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const checked = storageKey(key);
    const { file, range: served } = await this.uploads.openSigned(checked, expires, signature, range);
    return sendFile(reply, checked, file, served);
  }
}
