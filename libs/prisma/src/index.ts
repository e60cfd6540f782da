export * from './client-factory.js';
export * from './migration-files.js';
export * from './migrations.js';
export * from './data-helpers.js';
export * from './ids.js';
export * from './pending-migrations.js';
