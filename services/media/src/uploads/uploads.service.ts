import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { isPublicKey, keyFor, ownerOfKey, randomFilename } from '../storage/storage-key.js';
import { type ByteRange, STORAGE, type Storage, type StoredObject } from '../storage/storage.js';
import { DEFAULT_EXPIRES_IN_SECONDS, UrlSigner } from '../storage/url-signer.js';
import { byteRange } from './byte-range.js';
import { assertContentMatches, claimedFormat } from './content-check.js';
import type { FileUrlDto, UploadResultDto } from './dto/upload-result.dto.js';
import type { UploadQuery } from './dto/upload.query.js';
import { FILE_URLS, type FileUrls } from './file-urls.js';
import { ImageDecodeError, toWebp } from './image-optimizer.js';
import { Spool } from './spool.js';
import { ALLOWLISTS, isPublicType } from './upload-types.js';
import { UploadsRepository } from './uploads.repository.js';

/**
 * One file part of a multipart request, as the controller hands it over: its stream fails with
 * 413 UPLOAD_TOO_LARGE past the size limit and 400 VALIDATION_FAILED when the body is malformed.
 */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  stream: Readable;
}

/** A stored file opened for reading, and the byte range being served (undefined: all of it). */
export interface OpenedFile {
  file: StoredObject;
  range: ByteRange | undefined;
}

const WEBP_MIME = 'image/webp';

/** Spec §4.4 and §4.5: storing uploads after their checks, and handing out URLs of stored files. */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger(UploadsService.name);

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(FILE_URLS) private readonly urls: FileUrls,
    private readonly signer: UrlSigner,
    private readonly uploads: UploadsRepository,
  ) {}

  /**
   * Rule 1: extension, claimed MIME type and content signature must all match the type's
   * allowlist; with optimize, images are stored as WebP. Over `maxBytes` is 413 and nothing is kept.
   */
  async upload(caller: Principal, query: UploadQuery, file: IncomingFile, maxBytes: number): Promise<UploadResultDto> {
    const format = claimedFormat(ALLOWLISTS[query.uploadType], file.filename, file.mimetype);
    const spool = await Spool.create();
    try {
      const received = await spool.write(file.stream);
      if ((await stat(received)).size > maxBytes) throw new AppError('UPLOAD_TOO_LARGE');
      await assertContentMatches(received, format);

      const convert = format.image && query.optimize;
      const stored = convert ? spool.path('.webp') : received;
      if (convert) {
        await toWebp(received, stored).catch((error: unknown) => {
          throw error instanceof ImageDecodeError ? new AppError('UPLOAD_CONTENT_REJECTED', undefined, { cause: error }) : error;
        });
      }
      const extension = convert ? 'webp' : (format.extensions[0] ?? format.name);
      const mimeType = convert ? WEBP_MIME : (format.mimeTypes[0] ?? 'application/octet-stream');
      return await this.store(caller, query, file.filename, stored, extension, mimeType);
    } finally {
      await spool.dispose();
    }
  }

  /** Rule 3 then a URL: signed for a private key, permanent for a public one. */
  signedUrl(caller: Principal, key: string, expiresInSeconds: number): Promise<FileUrlDto> {
    this.assertMayRead(caller, key);
    return this.urls.of(key, expiresInSeconds);
  }

  /** The batch form of signedUrl: every key is checked first, so one foreign key refuses the whole batch. */
  async signedUrls(caller: Principal, keys: readonly string[], expiresInSeconds: number): Promise<Record<string, FileUrlDto>> {
    for (const key of keys) this.assertMayRead(caller, key);
    return Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await this.urls.of(key, expiresInSeconds)] as const)));
  }

  /** A file behind a signed gateway URL: 403 for a bad or expired signature (public files need none). */
  openSigned(key: string, expires: unknown, signature: unknown, rangeHeader?: string): Promise<OpenedFile> {
    if (!isPublicKey(key) && !this.signer.verify(key, expires, signature)) throw new AppError('UPLOAD_FORBIDDEN');
    return this.open(key, rangeHeader);
  }

  /** Rule 2: the file proxy, after the ownership check of rule 3. */
  openOwned(caller: Principal, key: string, rangeHeader?: string): Promise<OpenedFile> {
    this.assertMayRead(caller, key);
    return this.open(key, rangeHeader);
  }

  /**
   * POST /upload/multiple: each file as `upload` would store it, all or none: when one is refused,
   * the files of the request already stored are deleted again.
   */
  async uploadMany(caller: Principal, query: UploadQuery, files: AsyncIterable<IncomingFile>, maxBytes: number): Promise<UploadResultDto[]> {
    const stored: UploadResultDto[] = [];
    try {
      for await (const file of files) stored.push(await this.upload(caller, query, file, maxBytes));
    } catch (error) {
      for (const result of stored) await this.discard(result.relativePath);
      throw error;
    }
    return stored;
  }

  private async open(key: string, rangeHeader: string | undefined): Promise<OpenedFile> {
    const info = await this.storage.stat(key);
    if (!info) throw new AppError('FILE_NOT_FOUND');
    const range = byteRange(rangeHeader, info.size);
    const file = await this.storage.get(key, range);
    if (!file) throw new AppError('FILE_NOT_FOUND');
    return { file, range };
  }

  private async discard(relativePath: string): Promise<void> {
    await this.uploads.remove(relativePath).catch(() => undefined);
    await this.storage.delete(relativePath).catch((error: unknown) => this.logger.error(`could not delete ${relativePath}: ${String(error)}`));
  }

  private async store(caller: Principal, query: UploadQuery, originalName: string, path: string, extension: string, mimeType: string): Promise<UploadResultDto> {
    const isPublic = isPublicType(query.uploadType);
    const filename = randomFilename(extension);
    const relativePath = keyFor(query.uploadType, isPublic, caller.userId, filename);
    const { size } = await this.storage.put(relativePath, createReadStream(path), mimeType, (await stat(path)).size).catch((error: unknown) => {
      this.logger.error(`storage rejected the upload of ${relativePath}: ${String(error)}`);
      throw new AppError('STORAGE_UNAVAILABLE', undefined, { cause: error });
    });
    try {
      await this.uploads.record({ ownerId: caller.userId, uploadType: query.uploadType, relativePath, filename, originalName, mimeType, size, isPublic });
    } catch (error) {
      await this.storage.delete(relativePath).catch(() => undefined);
      throw error;
    }
    return { filename, originalName, mimeType, size, relativePath, ...(await this.urls.of(relativePath, DEFAULT_EXPIRES_IN_SECONDS)) };
  }

  /** Rule 3: a private key's userId segment must be the caller's; legacy keys without one pass with a warning. */
  private assertMayRead(caller: Principal, key: string): void {
    if (isPublicKey(key)) return;
    const owner = ownerOfKey(key);
    if (owner === null) {
      this.logger.warn(`legacy key without a userId segment allowed: ${key} (caller ${caller.userId})`);
      return;
    }
    if (owner !== caller.userId) throw new AppError('UPLOAD_FORBIDDEN');
  }
}
