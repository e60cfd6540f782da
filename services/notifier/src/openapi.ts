import { serviceDocument } from '@school/openapi';
import { LIVE_NOTIFICATION_ROUTES } from './live/live-notifications.docs.js';

/** This service's part of the API, served at GET /openapi.json for the gateway to merge. */
export const NOTIFIER_DOCUMENT = serviceDocument('notifier', [], {}, LIVE_NOTIFICATION_ROUTES);
