export * from './openapi.module.js';
