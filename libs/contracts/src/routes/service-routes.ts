import { FEEDBACK_ROUTES } from './feedback.js';
import type { RouteManifest } from './route-spec.js';

/** Every context's manifest, by the service that serves it: the gateway's route table comes from these. */
export const SERVICE_ROUTES = {
  feedback: [FEEDBACK_ROUTES],
} as const satisfies Record<string, readonly RouteManifest[]>;
