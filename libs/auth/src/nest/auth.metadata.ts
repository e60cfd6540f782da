/** Metadata: the permissions a handler or controller requires; present (maybe empty) = JWT required. */
export const REQUIRED_PERMISSIONS = Symbol('REQUIRED_PERMISSIONS');
/** Metadata: the surface a route's tokens must come from, else 401 (see @TokenSurface()). */
export const TOKEN_SURFACE = Symbol('TOKEN_SURFACE');
/** Metadata: the surface a route requires of its caller, else 403; JWT required (see @RequireSurface()). */
export const REQUIRED_SURFACE = Symbol('REQUIRED_SURFACE');
/** Where the guard leaves the verified caller on the request. */
export const PRINCIPAL = Symbol('PRINCIPAL');
