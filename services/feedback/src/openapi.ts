import { SERVICE_ROUTES } from '@school/contracts';
import { serviceDocument } from '@school/openapi';

/** This service's part of the API, served at GET /openapi.json for the gateway to merge. */
export const FEEDBACK_DOCUMENT = serviceDocument('feedback', SERVICE_ROUTES.feedback);
