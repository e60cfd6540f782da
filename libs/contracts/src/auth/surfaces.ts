/**
 * The client surfaces of contract §4: the administrator backoffice (`/api/auth`) and the customer
 * app (`/api/mobile/auth`). An access token is bound to the surface whose login issued it.
 */
export const SURFACES = { admin: 'admin', mobile: 'mobile' } as const;

export type Surface = (typeof SURFACES)[keyof typeof SURFACES];
