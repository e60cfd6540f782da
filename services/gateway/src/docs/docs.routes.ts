import type { FastifyInstance } from 'fastify';
import { AppError } from '@school/http';
import type { Logger } from '@school/telemetry';
import type { GatewayRoute } from '../routes/route-table.js';
import { DOCS_INIT_SCRIPT, DOCS_PAGE, DOCS_PAGE_CSP, DOCS_PATH, DOCUMENT_PATH, swaggerUiAsset } from './docs-assets.js';
import { mergeDocument } from './merge-document.js';
import type { ServiceDocParts } from './service-parts.js';

export interface DocsRouteOptions {
  routes: readonly GatewayRoute[];
  parts: ServiceDocParts;
  logger: Logger;
}

/**
 * The gateway's own documentation routes (contract §2): the merged document and the page reading
 * it. Never proxied, throttled or authenticated. The document is always answered: parts still
 * missing are asked for once more, and routes of a service that stays silent keep a placeholder.
 */
export function registerDocsRoutes(app: FastifyInstance, { routes, parts, logger }: DocsRouteOptions): void {
  app.get(DOCUMENT_PATH, async (_request, reply) => {
    const missing = parts.missing();
    if (missing.length > 0) await parts.fetch(missing);
    reply.header('cache-control', 'no-cache');
    try {
      return mergeDocument(routes, parts.snapshot());
    } catch (error) {
      logger.error({ err: error }, 'merging the services’ API descriptions failed; answering the table alone');
      return mergeDocument(routes, {});
    }
  });

  app.get(DOCS_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_PAGE_CSP).send(DOCS_PAGE));
  app.get(`${DOCS_PATH}/init.js`, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(DOCS_INIT_SCRIPT));
  app.get<{ Params: { file: string } }>(`${DOCS_PATH}/:file`, async (request, reply) => {
    const asset = await swaggerUiAsset(request.params.file);
    if (!asset) throw new AppError('NOT_FOUND');
    return reply.type(asset.contentType).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
}
