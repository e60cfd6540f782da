import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { storageKey } from '../storage/storage-key.js';
import { UploadsService } from './uploads.service.js';

/** Types a browser may show in place; everything else is offered as a download. */
const INLINE = /^(?:image\/(?:jpeg|png|webp|gif)|video\/(?:mp4|webm|quicktime))$/;

/**
 * Contract §8, local driver: the file behind a signed URL, without a bearer token, until the URL
 * expires (403 after it, or for any tampered part); `public/` files at a permanent URL.
 */
@Controller('api/files/signed')
export class SignedFilesController {
  constructor(private readonly uploads: UploadsService) {}

  @Get('*')
  async serve(@Param('*') key: string, @Query('expires') expires: unknown, @Query('signature') signature: unknown, @Res() reply: FastifyReply) {
    const checked = storageKey(key);
    const file = await this.uploads.openSigned(checked, expires, signature);
    const name = checked.slice(checked.lastIndexOf('/') + 1);
    return reply
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `${INLINE.test(file.contentType) ? 'inline' : 'attachment'}; filename="${name}"`)
      .header('cache-control', 'private, max-age=3600')
      .send(file.stream);
  }
}
