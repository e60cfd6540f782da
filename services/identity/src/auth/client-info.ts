import { isIP } from 'node:net';
import type { ServerResponse } from 'node:http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { abandonedSignal } from '@school/http';
import type { ClientInfo } from '../sessions/sessions.service.js';

const USER_AGENT_MAX_LENGTH = 1024;

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
}

/**
 * The caller's ip and user agent, recorded on the session. Identity listens only behind the
 * gateway, which sets `X-Forwarded-For` to the client address it determined (first entry); the
 * socket address is the fallback for direct calls.
 */
export function clientInfoOf(request: RequestLike): ClientInfo {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  const ip = first && isIP(first) ? first : request.ip && isIP(request.ip) ? request.ip : null;
  const agent = request.headers['user-agent'];
  const userAgent = typeof agent === 'string' && agent.length > 0 ? agent.slice(0, USER_AGENT_MAX_LENGTH) : null;
  return { ip, userAgent };
}

/** `@RequestClient() client: ClientInfo`, with the signal of the request's abandonment. */
export const RequestClient = createParamDecorator((_data: unknown, context: ExecutionContext): ClientInfo => {
  const http = context.switchToHttp();
  const response = http.getResponse<{ raw?: ServerResponse }>().raw;
  return { ...clientInfoOf(http.getRequest<RequestLike>()), ...(response && { abandoned: abandonedSignal(response) }) };
});
