import { serviceDocument } from '@school/openapi';
import { ACADEMIC_SESSION_ROUTES } from './academic-sessions/academic-sessions.docs.js';
import { GEOGRAPHY_ROUTES } from './geography/geography.docs.js';
import { SCHOOL_PROFILE_ROUTES } from './school-profile/school-profile.docs.js';

/** This service's part of the API, served at GET /openapi.json for the gateway to merge. */
export const REFERENCE_DATA_DOCUMENT = serviceDocument('reference-data', [], {}, [...ACADEMIC_SESSION_ROUTES, ...GEOGRAPHY_ROUTES, ...SCHOOL_PROFILE_ROUTES]);
