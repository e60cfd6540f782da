export * from './openapi-types.js';
export * from './schema.js';
export * from './error-responses.js';
export * from './route-doc.js';
export * from './document.js';
// The envelope schemas and tags the manifests use, declared in the contracts.
export { successEnvelope, paginatedEnvelope, nullEnvelope, timestamp, publicIdParams, API_TAGS, type ApiTag, tagDescription, type RouteError } from '@school/contracts';
