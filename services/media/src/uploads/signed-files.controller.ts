import { Controller, Headers, Param, Query, Res } from '@nestjs/common';
import { SIGNED_FILE_ROUTES } from '@school/contracts';
import { Route } from '@school/service';
import type { FastifyReply } from 'fastify';
import { storageKey } from '../storage/storage-key.js';
import { sendFile } from './file-reply.js';
import { UploadsService } from './uploads.service.js';

/** Contract §8, local driver: the route of SIGNED_FILE_ROUTES; its signature is checked by the signer, never by shape alone. */
@Controller()
export class SignedFilesController {
  constructor(private readonly uploads: UploadsService) {}

  @Route(SIGNED_FILE_ROUTES.serve)
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
