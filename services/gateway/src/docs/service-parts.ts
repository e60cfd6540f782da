import type { ServiceName } from '@school/config';
import type { OpenApiDocument } from '@school/openapi';
import type { Logger } from '@school/telemetry';
import type { ServiceParts } from './merge-document.js';

export interface ServicePartsOptions {
  logger: Logger;
  /** Each service's part is asked again this often while missing... */
  retryMs?: number;
  /** ...and this often once known (a redeployed service may document more). */
  refreshMs?: number;
  fetchTimeoutMs?: number;
}

function isDocument(value: unknown): value is OpenApiDocument {
  return typeof value === 'object' && value !== null && typeof (value as OpenApiDocument).paths === 'object' && (value as OpenApiDocument).paths !== null;
}

/**
 * The services' parts of the API (`GET <service>/openapi.json`), fetched at start-up in the
 * background, retried while any is missing and refreshed after; the last good part of a service
 * is kept while it is down. A request for the document may also ask for the missing ones at once.
 */
export class ServiceDocParts {
  private readonly parts: ServiceParts = {};
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  private readonly retryMs: number;
  private readonly refreshMs: number;
  private readonly fetchTimeoutMs: number;

  constructor(
    private readonly upstreams: Record<ServiceName, string>,
    private readonly options: ServicePartsOptions,
  ) {
    this.retryMs = options.retryMs ?? 2_000;
    this.refreshMs = options.refreshMs ?? 5 * 60_000;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? 2_000;
  }

  start(): void {
    void this.cycle();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  snapshot(): ServiceParts {
    return { ...this.parts };
  }

  missing(): ServiceName[] {
    return (Object.keys(this.upstreams) as ServiceName[]).filter((name) => !this.parts[name]);
  }

  /** Fetches the given parts (every part by default); concurrent callers share one round. */
  fetch(names: readonly ServiceName[] = Object.keys(this.upstreams) as ServiceName[]): Promise<void> {
    this.inFlight ??= Promise.all(names.map((name) => this.fetchOne(name))).then(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async cycle(): Promise<void> {
    await this.fetch();
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.cycle(), this.missing().length > 0 ? this.retryMs : this.refreshMs);
    this.timer.unref();
  }

  private async fetchOne(name: ServiceName): Promise<void> {
    try {
      const response = await fetch(`${this.upstreams[name]}/openapi.json`, { signal: AbortSignal.timeout(this.fetchTimeoutMs) });
      const body: unknown = response.ok ? await response.json() : undefined;
      if (!isDocument(body)) throw new Error(`answered ${response.status} without a document`);
      this.parts[name] = body;
    } catch (error) {
      this.options.logger.debug({ err: error, service: name }, 'API description of a service unavailable; asking again later');
    }
  }
}
