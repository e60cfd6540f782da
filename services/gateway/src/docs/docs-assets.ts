import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** swagger-ui-dist's files the page loads, served by the gateway itself: the page needs no CDN and no internet. */
const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export const DOCS_PATH = '/api/docs';
export const DOCUMENT_PATH = '/api/openapi.json';

/** The interactive page: swagger-ui reading the merged document; no inline script. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>School-commerce API</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

/**
 * Contract §9: the page runs only the gateway's own scripts and styles and talks only to the
 * gateway (swagger-ui's stylesheet draws its icons from data: URLs).
 */
export const DOCS_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  showExtensions: true,
  // The default validator badge calls validator.swagger.io; the page must work offline.
  validatorUrl: null,
});
`;

export interface Asset {
  contentType: string;
  body: Buffer;
}

const cache = new Map<string, Promise<Asset>>();

/** A file of swagger-ui-dist by name, read once; undefined for any name not on the list. */
export function swaggerUiAsset(name: string): Promise<Asset> | undefined {
  const contentType = SWAGGER_UI_FILES[name];
  if (!contentType) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = readFile(join(swaggerUiDir, name)).then((body) => ({ contentType, body }));
    asset.catch(() => cache.delete(name));
    cache.set(name, asset);
  }
  return asset;
}
