export * from './audit-changes.js';
export * from './audit-context.js';
export * from './audit-recorder.js';
