export * from './resources.js';
export * from './output.js';
export * from './readiness.js';
export * from './system.js';
export * from './processes.js';
export * from './process-group.js';
