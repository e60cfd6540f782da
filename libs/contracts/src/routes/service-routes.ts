import { ACADEMIC_SESSION_ROUTES } from './academic-sessions.js';
import { ACCOUNT_EXPORT_ROUTES } from './account-export.js';
import { AUDIT_ROUTES } from './audit.js';
import { ADMIN_AUTH_ROUTES, MOBILE_AUTH_ROUTES } from './auth.js';
import { ADMIN_CREDENTIAL_ROUTES, MOBILE_CREDENTIAL_ROUTES } from './credentials.js';
import { FEEDBACK_ROUTES } from './feedback.js';
import { GEOGRAPHY_ROUTES } from './geography.js';
import { KEY_ROUTES } from './keys.js';
import { NOTIFICATION_ROUTES } from './notifications.js';
import type { RouteManifest } from './route-spec.js';
import { SCHOOL_PROFILE_ROUTES } from './school-profile.js';
import { ADMIN_UPLOAD_ROUTES, MOBILE_UPLOAD_ROUTES, SIGNED_FILE_ROUTES } from './uploads.js';
import { USER_ROUTES } from './users.js';

/** Every context's manifest, by the service that serves it: the gateway's route table comes from these. */
export const SERVICE_ROUTES = {
  identity: [ADMIN_AUTH_ROUTES, ADMIN_CREDENTIAL_ROUTES, MOBILE_AUTH_ROUTES, MOBILE_CREDENTIAL_ROUTES, USER_ROUTES, ACCOUNT_EXPORT_ROUTES, KEY_ROUTES, AUDIT_ROUTES],
  'reference-data': [ACADEMIC_SESSION_ROUTES, GEOGRAPHY_ROUTES, SCHOOL_PROFILE_ROUTES],
  feedback: [FEEDBACK_ROUTES],
  media: [ADMIN_UPLOAD_ROUTES, MOBILE_UPLOAD_ROUTES, SIGNED_FILE_ROUTES],
  notifier: [NOTIFICATION_ROUTES],
} as const satisfies Record<string, readonly RouteManifest[]>;
