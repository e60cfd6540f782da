export * from './token-issuer.js';
export * from './database.js';
export * from './test-schema.js';
export * from './schema-drift/schema-drift.js';
export * from './free-port.js';
export * from './http-client.js';
export * from './metrics-scrape.js';
export * from './upload-bodies.js';
