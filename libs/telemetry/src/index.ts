export * from './logger.js';
export * from './tracing.js';
