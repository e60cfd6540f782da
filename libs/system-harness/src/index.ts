export * from './resources.js';
export * from './output.js';
export * from './readiness.js';
export * from './system.js';
