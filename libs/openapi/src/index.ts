export * from './openapi-types.js';
export * from './schema.js';
export * from './envelopes.js';
export * from './error-responses.js';
export * from './route-doc.js';
export * from './document.js';
export * from './tags.js';
