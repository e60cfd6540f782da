import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Principal } from '@school/auth';
import { AppError } from '@school/http';
import { auditChanges, AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import { isPublicKey, keyFor, ownerOfKey, randomFilename } from '../storage/storage-key.js';
import { type ByteRange, STORAGE, type Storage, type StoredObject } from '../storage/storage.js';
import { UrlSigner } from '../storage/url-signer.js';
import { byteRange } from './byte-range.js';
import { assertContentMatches, claimedFormat } from './content-check.js';
import { CONVERSION_GATE, type ConversionGate } from './conversion-gate.js';
import type { UploadQuery } from './dto/upload.query.js';
import { assertFileName } from './file-name.js';
import { FILE_URLS, type FileUrls } from './file-urls.js';
import { checkedBudget, ImageDecodeError, toWebp } from './image-optimizer.js';
import { Spool } from './spool.js';
import { ALLOWLISTS, DEFAULT_EXPIRES_IN_SECONDS, type FileUrlDto, isPublicType, storedType, type UploadResultDto } from '@school/contracts';
import { type UploadRecord, UploadsRepository } from './uploads.repository.js';

/**
 * One file part of a multipart request, as the controller hands it over: its stream fails with
 * 413 UPLOAD_TOO_LARGE past the size limit and 400 VALIDATION_FAILED when the body is malformed.
 */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  stream: Readable;
}

/** What one upload may take: its size, and for a customer, the storage quota all their files share. */
export interface UploadAllowance {
  maxBytes: number;
  /** CUSTOMER_STORAGE_QUOTA_MB in bytes; undefined: no quota (staff). */
  quotaBytes: number | undefined;
}

/** An upload checked and converted in its spool, ready to store. */
interface PreparedFile {
  path: string;
  originalName: string;
  extension: string;
  mimeType: string;
}

/** Who converts, the size limit, and the signal of a request whose client is gone. */
interface PrepareJob {
  caller: Principal;
  maxBytes: number;
  abandoned: AbortSignal | undefined;
}

/** A stored file opened for reading, and the byte range being served (undefined: all of it). */
export interface OpenedFile {
  file: StoredObject;
  range: ByteRange | undefined;
}

const WEBP_MIME = 'image/webp';

/** What an administrator's upload entry says of the stored file (contract §13); its key is the entry's target. */
const AUDITED_FIELDS = ['uploadType', 'originalName', 'mimeType', 'size', 'isPublic'] as const;

/** Spec §4.4 and §4.5: storing uploads after their checks, and handing out URLs of stored files. */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger(UploadsService.name);

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(FILE_URLS) private readonly urls: FileUrls,
    private readonly signer: UrlSigner,
    private readonly uploads: UploadsRepository,
    private readonly unitOfWork: UnitOfWork,
    @Inject(CONVERSION_GATE) private readonly conversions: ConversionGate,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * Rule 1: extension, claimed MIME type and content signature must all match the type's
   * allowlist; with optimize, images are stored as WebP (at most IMAGE_CONVERSIONS at once). Over
   * `maxBytes` is 413, over the quota 413 UPLOAD_QUOTA_EXCEEDED. Storing is the last step: a
   * refused upload keeps nothing (contract §9).
   */
  async upload(caller: Principal, query: UploadQuery, file: IncomingFile, allowance: UploadAllowance, abandoned?: AbortSignal): Promise<UploadResultDto> {
    const spool = await Spool.create();
    try {
      const prepared = await this.prepare(spool, query, file, { caller, maxBytes: allowance.maxBytes, abandoned });
      return await this.store(caller, query, prepared, allowance.quotaBytes);
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
   * POST /upload/multiple: each file checked and converted as `upload` would, all or none: every
   * file is prepared before the first is stored, and a failed store deletes the ones stored before it.
   */
  async uploadMany(caller: Principal, query: UploadQuery, files: AsyncIterable<IncomingFile>, allowance: UploadAllowance, abandoned?: AbortSignal): Promise<UploadResultDto[]> {
    const spool = await Spool.create();
    try {
      const prepared: PreparedFile[] = [];
      for await (const file of files) prepared.push(await this.prepare(spool, query, file, { caller, maxBytes: allowance.maxBytes, abandoned }));
      const stored: UploadResultDto[] = [];
      try {
        for (const file of prepared) stored.push(await this.store(caller, query, file, allowance.quotaBytes));
      } catch (error) {
        await this.discard(stored.map((result) => result.relativePath));
        throw error;
      }
      return stored;
    } finally {
      await spool.dispose();
    }
  }

  /** Files stored for a request whose 200 never reached the client: the upload did not happen (contract §9). */
  async discardUndelivered(relativePaths: readonly string[]): Promise<void> {
    this.logger.warn(`upload answer not delivered, stored files discarded: ${relativePaths.join(', ')}`);
    await this.discard(relativePaths);
  }

  private async open(key: string, rangeHeader: string | undefined): Promise<OpenedFile> {
    const info = await this.storage.stat(key);
    if (!info) throw new AppError('FILE_NOT_FOUND');
    const range = byteRange(rangeHeader, info.size);
    const file = await this.storage.get(key, range);
    if (!file) throw new AppError('FILE_NOT_FOUND');
    return { file, range };
  }

  private async discard(relativePaths: readonly string[]): Promise<void> {
    for (const relativePath of relativePaths) {
      await this.storage.delete(relativePath).catch((error: unknown) => this.logger.error(`could not delete ${relativePath}: ${String(error)}`));
      await this.uploads.remove(relativePath).catch((error: unknown) => this.logger.error(`could not remove the record of ${relativePath}: ${String(error)}`));
    }
  }

  /**
   * The file spooled, checked and converted: what would be stored, nothing stored yet. The
   * conversion takes its turn in the caller's account's lane, costing the pixels its header
   * declares; it leaves the line (or stops before decoding) when the request is `abandoned`.
   */
  private async prepare(spool: Spool, query: UploadQuery, file: IncomingFile, job: PrepareJob): Promise<PreparedFile> {
    const { maxBytes } = job;
    assertFileName(file.filename);
    const format = claimedFormat(ALLOWLISTS[query.uploadType], file.filename, file.mimetype);
    const received = await spool.write(file.stream);
    if ((await stat(received)).size > maxBytes) throw new AppError('UPLOAD_TOO_LARGE');
    await assertContentMatches(received, format);
    if (!(format.image && query.optimize)) {
      return { path: received, originalName: file.filename, extension: format.extensions[0] ?? format.name, mimeType: storedType(format) };
    }
    const converted = spool.path('.webp');
    await checkedBudget(received)
      .then(({ pixels }) => this.conversions.run((stop) => toWebp(received, converted, stop), { account: job.caller.userId, pixels, signal: job.abandoned }))
      .catch((error: unknown) => {
        throw error instanceof ImageDecodeError ? new AppError('UPLOAD_CONTENT_REJECTED', undefined, { cause: error }) : error;
      });
    return { path: converted, originalName: file.filename, extension: 'webp', mimeType: WEBP_MIME };
  }

  /**
   * A customer's upload: the record first, as the quota's reservation (taken under the owner's
   * lock, so concurrent uploads never pass the quota together), then the object; a failed put
   * removes the record. An administrator's (no quota, audited, contract §13): the object first, then
   * the record and its audit entry in one transaction; a failed transaction deletes the object.
   */
  private async store(caller: Principal, query: UploadQuery, file: PreparedFile, quotaBytes: number | undefined): Promise<UploadResultDto> {
    const { path, originalName, mimeType } = file;
    const isPublic = isPublicType(query.uploadType);
    const filename = randomFilename(file.extension);
    const relativePath = keyFor(query.uploadType, isPublic, caller.userId, filename);
    const size = (await stat(path)).size;
    const record: UploadRecord = { ownerId: caller.userId, uploadType: query.uploadType, relativePath, filename, originalName, mimeType, size, isPublic };
    if (caller.surface === 'admin') {
      await this.put(relativePath, path, mimeType, size, async () => undefined);
      await this.unitOfWork
        .run(async (tx) => {
          await this.uploads.record(record, tx);
          await this.audit.record(tx, { action: 'file.upload', target: { type: 'file', id: relativePath }, changes: auditChanges(undefined, record, AUDITED_FIELDS) });
        })
        .catch(async (error: unknown) => {
          await this.storage.delete(relativePath).catch(() => undefined);
          throw error;
        });
    } else {
      await this.reserve(record, quotaBytes);
      // A failed put leaves no object (Storage.put); only the reservation goes.
      await this.put(relativePath, path, mimeType, size, () => this.uploads.remove(relativePath));
    }
    return { filename, originalName, mimeType, size, relativePath, ...(await this.urls.of(relativePath, DEFAULT_EXPIRES_IN_SECONDS)) };
  }

  private async put(relativePath: string, path: string, mimeType: string, size: number, undo: () => Promise<void>): Promise<void> {
    try {
      await this.storage.put(relativePath, createReadStream(path), mimeType, size);
    } catch (error) {
      this.logger.error(`storage rejected the upload of ${relativePath}: ${String(error)}`);
      await undo().catch(() => undefined);
      throw new AppError('STORAGE_UNAVAILABLE', undefined, { cause: error });
    }
  }

  private async reserve(record: UploadRecord, quotaBytes: number | undefined): Promise<void> {
    if (quotaBytes === undefined) return this.uploads.record(record);
    await this.unitOfWork.run(async (tx) => {
      await this.uploads.lockOwner(record.ownerId, tx);
      if ((await this.uploads.storedBytes(record.ownerId, tx)) + record.size > quotaBytes) throw new AppError('UPLOAD_QUOTA_EXCEEDED');
      await this.uploads.record(record, tx);
    });
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
