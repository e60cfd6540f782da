/** Pages of the client apps that take a link token from the query string. */
export const LINK_PATHS = {
  passwordReset: '/reset-password',
  invitation: '/accept-invitation',
  emailVerification: '/verify-email',
} as const;

/** `<PUBLIC_BASE_URL><path>?token=<token>`, keeping any path prefix of the base URL. */
export function linkTo(publicBaseUrl: string, path: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${path}?token=${encodeURIComponent(token)}`;
}
