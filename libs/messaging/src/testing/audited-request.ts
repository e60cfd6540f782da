import { randomUUID } from 'node:crypto';

/** An answer to a request whose audit entry a test reads (contract §13): the request id it carried. */
export interface AuditedAnswer {
  status: number;
  body: { data?: unknown } & Record<string, unknown>;
  requestId: string | null;
}

/** What an audit entry records of a request (contract §13): the client address the gateway vouched for, the user agent, a request id of its own. */
export function auditedHeaders(forwarded: Record<string, string>, userAgent: string): Record<string, string> {
  return { ...forwarded, 'user-agent': userAgent, 'x-request-id': randomUUID() };
}

export async function auditedAnswer(response: Response): Promise<AuditedAnswer> {
  return { status: response.status, body: (await response.json()) as AuditedAnswer['body'], requestId: response.headers.get('x-request-id') };
}
