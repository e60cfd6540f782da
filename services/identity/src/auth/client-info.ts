import type { ServerResponse } from 'node:http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestClientIp } from '@school/auth/nest';
import { abandonedSignal } from '@school/http';
import type { ClientInfo } from '../sessions/sessions.service.js';

const USER_AGENT_MAX_LENGTH = 1024;

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
  clientIp?: string | null;
}

/**
 * The caller's ip and user agent, recorded on the session. The ip is the client address the
 * gateway forwarded and signed (ClientAddressModule); a direct caller is its socket address,
 * whatever `X-Forwarded-For` it writes.
 */
export function clientInfoOf(request: RequestLike): ClientInfo {
  const ip = requestClientIp(request);
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
