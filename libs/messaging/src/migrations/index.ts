// The outbox's and inbox's migrations folders (`@school/messaging/migrations`), without the broker client
// and the rest of the main entry: a service's migration job imports these and nothing else of messaging.
export { OUTBOX_MIGRATIONS } from '../outbox/outbox-schema.js';
export { INBOX_MIGRATIONS } from '../inbox/inbox-schema.js';
