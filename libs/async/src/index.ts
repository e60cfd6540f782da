export * from './deadline.js';
export * from './fair-scheduler.js';
