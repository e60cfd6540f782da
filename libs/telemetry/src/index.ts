export * from './access-log.js';
export * from './logger.js';
export * from './tracing.js';
export * from './redact-url.js';
export * from './spans.js';
