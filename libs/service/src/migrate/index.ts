// The migration job's entry (`@school/service/migrate`): it loads the applier, the configuration and the
// logger only, not NestJS and the rest of the main entry, so a service's dist/migrate.js starts in a
// fraction of the service's own start.
export * from '../migrate-service.js';
