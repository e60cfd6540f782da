import { Injectable } from '@nestjs/common';
import { FILES_OF_ACCOUNT, type RpcAnswer, type RpcRequest, UPLOAD_TYPES, type UploadType } from '@school/contracts';
import { RpcHandler } from '@school/messaging/nest';
import { UploadsRepository } from './uploads.repository.js';

const isUploadType = (value: string): value is UploadType => (UPLOAD_TYPES as readonly string[]).includes(value);

/**
 * Identity's question for a person's copy of their data (contract §11): every file they uploaded
 * that is stored now, public ones included, by the key clients keep. No URL: a copy outlives any
 * signature, and the key is what the signed-URL routes take.
 */
@Injectable()
export class FilesOfAccount {
  constructor(private readonly repository: UploadsRepository) {}

  @RpcHandler(FILES_OF_ACCOUNT)
  async answer(request: RpcRequest<typeof FILES_OF_ACCOUNT>): Promise<RpcAnswer<typeof FILES_OF_ACCOUNT>> {
    const stored = await this.repository.storedBy(request.ownerId);
    return {
      files: stored.map((file) => {
        if (!isUploadType(file.uploadType)) throw new Error(`stored upload ${file.relativePath} has the unknown type ${file.uploadType}`);
        return {
          key: file.relativePath,
          uploadType: file.uploadType,
          originalName: file.originalName,
          mimeType: file.mimeType,
          size: Number(file.size),
          createdAt: file.createdAt.toISOString(),
        };
      }),
    };
  }
}
