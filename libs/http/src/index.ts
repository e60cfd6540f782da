export * from './app-error.js';
export * from './envelope.js';
export * from './error-codes.js';
export * from './error-response.js';
export * from './validation.js';
export * from './text-rules.js';
export * from './list-query.js';
export * from './contact-fields.js';
