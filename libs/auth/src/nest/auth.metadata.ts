/** Metadata: the permissions a handler or controller requires; present (maybe empty) = JWT required. */
export const REQUIRED_PERMISSIONS = Symbol('REQUIRED_PERMISSIONS');
/** Where the guard leaves the verified caller on the request. */
export const PRINCIPAL = Symbol('PRINCIPAL');
