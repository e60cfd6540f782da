/** The envelope of contract §3 (lists add count, currentPage, totalPage). */
export interface EnvelopeBody {
  message: string;
  data: unknown;
  errorCode: string | null;
  errors?: { field: string; message: string }[];
  count?: number;
  currentPage?: number;
  totalPage?: number;
}

/** An answer of a service or the gateway, its body in the envelope unless a caller names another shape. */
export interface HttpAnswer<Body = EnvelopeBody> {
  status: number;
  /** The Retry-After header (null when the answer had none), where the client was asked for it. */
  retryAfter?: string | null;
  body: Body;
}

export type HttpRequest<Body = EnvelopeBody> = (
  method: string,
  path: string,
  body?: unknown,
  accessToken?: string | null,
  headers?: Record<string, string>,
) => Promise<HttpAnswer<Body>>;

export interface HttpClientOptions {
  /** Headers of every request (a client address of its own, say); a call's own go over them. */
  headers?: () => Record<string, string>;
  /** Answers carry `retryAfter` (else they have only status and body, as whole-answer assertions expect). */
  retryAfter?: boolean;
}

/**
 * Requests over a real socket: a JSON body (or a raw string), a bearer token when given. `baseUrl`
 * may be a function, for a suite whose system starts in its beforeAll.
 */
export function httpClient<Body = EnvelopeBody>(baseUrl: string | (() => string), options: HttpClientOptions = {}): HttpRequest<Body> {
  return async (method, path, body, accessToken, extraHeaders = {}) => {
    const headers: Record<string, string> = options.headers?.() ?? {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    const response = await fetch(`${typeof baseUrl === 'string' ? baseUrl : baseUrl()}${path}`, {
      method,
      headers: { ...headers, ...extraHeaders },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const answer: HttpAnswer<Body> = { status: response.status, body: (await response.json()) as Body };
    return options.retryAfter ? { ...answer, retryAfter: response.headers.get('retry-after') } : answer;
  };
}
