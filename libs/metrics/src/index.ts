export * from './http-metrics.js';
export * from './metrics-endpoint.js';
export * from './registry.js';
export * from './request-histogram.js';
export * from './scraped-gauges.js';
