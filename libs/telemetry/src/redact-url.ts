/** Paths whose query string is a credential: a local-driver signed URL (`?expires=...&signature=...`). */
const SIGNED_PATH = /\/files\/signed\//;

/** Query parameters that carry a credential on any route (signatures, tokens, codes, S3 presigning). */
const SECRET_PARAMETER = /^(signature|sig|token|access_token|refresh_token|id_token|code|otp|password|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

export const REDACTED = '[redacted]';

/**
 * A request target fit for a log line (contract §9: logs never hold a signed URL's signature or a
 * token). The whole query of a signed route is dropped; elsewhere each credential parameter's value is.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const path = url.slice(0, query);
  if (SIGNED_PATH.test(path)) return `${path}?${REDACTED}`;
  const parameters = url.slice(query + 1).split('&');
  if (!parameters.some((parameter) => SECRET_PARAMETER.test(parameterName(parameter)))) return url;
  const kept = parameters.map((parameter) => (SECRET_PARAMETER.test(parameterName(parameter)) ? `${parameter.split('=')[0]}=${REDACTED}` : parameter));
  return `${path}?${kept.join('&')}`;
}

function parameterName(parameter: string): string {
  const name = parameter.split('=')[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
