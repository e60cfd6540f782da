import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestClientIp } from '@school/auth/nest';

/** Column widths of feedback_submissions: longer values are cut to fit, never refused. */
const DEVICE_ID_MAX_LENGTH = 255;
const USER_AGENT_MAX_LENGTH = 1024;

/** Where a submission came from, stored with it. */
export interface RequestOrigin {
  ip: string | null;
  deviceId: string | null;
  userAgent: string | null;
}

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
  clientIp?: string | null;
}

function header(request: RequestLike, name: string, max: number): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;
}

/**
 * The ip is the client address the gateway forwarded and signed (ClientAddressModule, contract §4);
 * a direct caller is its socket address, whatever `X-Forwarded-For` it writes.
 */
export function requestOriginOf(request: RequestLike): RequestOrigin {
  const ip = requestClientIp(request);
  return { ip, deviceId: header(request, 'x-device-id', DEVICE_ID_MAX_LENGTH), userAgent: header(request, 'user-agent', USER_AGENT_MAX_LENGTH) };
}

/** `@Origin() origin: RequestOrigin` */
export const Origin = createParamDecorator((_data: unknown, context: ExecutionContext): RequestOrigin => requestOriginOf(context.switchToHttp().getRequest<RequestLike>()));
