import { Controller, Get, Res } from '@nestjs/common';
import { ERROR_CATALOGUE, success } from '@school/http';
import { ReadinessRegistry } from './readiness.js';

interface StatusReply {
  status(code: number): StatusReply;
}

@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  @Get('live')
  live() {
    return success('OK', { status: 'ok' });
  }

  /** 200 when every dependency answers; otherwise 503 SERVICE_UNAVAILABLE with the same per-dependency report. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: StatusReply) {
    const report = await this.readiness.report();
    if (report.status === 'ok') return success('Ready', report);
    const unavailable = ERROR_CATALOGUE.SERVICE_UNAVAILABLE;
    reply.status(unavailable.status);
    return { message: 'Not ready', data: report, errorCode: 'SERVICE_UNAVAILABLE' as const };
  }
}
