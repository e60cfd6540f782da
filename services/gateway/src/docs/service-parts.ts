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
  private readonly inFlight = new Map<ServiceName, Promise<void>>();
  /** When every part was last asked for (0: never). */
  private refreshedAt = 0;
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

  /** Fetches the given parts (every part by default); a part already being fetched is awaited, not asked twice. */
  async fetch(names: readonly ServiceName[] = Object.keys(this.upstreams) as ServiceName[]): Promise<void> {
    await Promise.all(
      names.map((name) => {
        let pending = this.inFlight.get(name);
        if (!pending) {
          pending = this.fetchOne(name).finally(() => this.inFlight.delete(name));
          this.inFlight.set(name, pending);
        }
        return pending;
      }),
    );
  }

  /**
   * Asks for the missing parts, and for every part once refreshMs has passed since they were last
   * all asked for: a part the gateway holds is not asked again every retryMs while another service
   * is down (a request to it each time, which behind a balancer takes a replica's turn).
   */
  private async cycle(): Promise<void> {
    const refreshDue = Date.now() - this.refreshedAt >= this.refreshMs;
    if (refreshDue) this.refreshedAt = Date.now();
    await this.fetch(refreshDue ? undefined : this.missing());
    if (this.stopped) return;
    const missing = this.missing().length > 0;
    this.timer = setTimeout(() => void this.cycle(), missing ? this.retryMs : Math.max(0, this.refreshedAt + this.refreshMs - Date.now()));
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
