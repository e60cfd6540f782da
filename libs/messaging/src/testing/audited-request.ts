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

/**
 * Each answer of a burst that is neither `success` nor the 503 SERVICE_UNAVAILABLE the contract
 * allows a saturated service (a loaded machine may answer some of a burst so): a change answered
 * 503 is not made, so not recorded either.
 */
export function unexpectedInBurst(answers: readonly AuditedAnswer[], success: number): string[] {
  return answers
    .map(({ status, body }) => (typeof body['errorCode'] === 'string' ? `${status} ${body['errorCode']}` : String(status)))
    .filter((outcome) => outcome !== String(success) && outcome !== '503 SERVICE_UNAVAILABLE');
}
