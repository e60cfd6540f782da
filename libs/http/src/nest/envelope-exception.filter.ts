import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { toErrorResponse } from '../error-response.js';

interface ReplyLike {
  status(code: number): ReplyLike;
  header(name: string, value: string): ReplyLike;
  send(body: unknown): void;
  sent?: boolean;
}

interface RequestLike {
  id?: string;
  method?: string;
  url?: string;
}

/** Maps whatever a handler throws to the contract's error envelope; the only HTTP error mapping in a service. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<ReplyLike>();
    const request = http.getRequest<RequestLike>();
    const response = toErrorResponse(exception instanceof HttpException ? httpExceptionShape(exception) : exception);
    if (response.unexpected) {
      // The path only: a query may hold a signed URL's signature or a token (contract §9).
      const path = request.url?.split('?')[0];
      this.logger.error({ err: exception, requestId: request.id, method: request.method, path }, `Unhandled error on ${request.method} ${path} (request ${request.id})`);
    }
    if (reply.sent) return;
    for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
    reply.status(response.status).send(response.body);
  }
}

function httpExceptionShape(exception: HttpException): { statusCode: number; message: string } {
  return { statusCode: exception.getStatus(), message: exception.message };
}
