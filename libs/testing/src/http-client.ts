/** An answer of a service in the envelope of contract §3 (lists add count, currentPage, totalPage). */
export interface HttpAnswer {
  status: number;
  body: {
    message: string;
    data: unknown;
    errorCode: string | null;
    errors?: { field: string; message: string }[];
    count?: number;
    currentPage?: number;
    totalPage?: number;
  };
}

export type HttpRequest = (method: string, path: string, body?: unknown, accessToken?: string) => Promise<HttpAnswer>;

/** Requests to a service over a real socket: a JSON body (or a raw string), a bearer token when given. */
export function httpClient(baseUrl: string): HttpRequest {
  return async (method, path, body, accessToken) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as HttpAnswer['body'] };
  };
}
