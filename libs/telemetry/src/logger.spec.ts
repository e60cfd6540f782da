import { Writable } from 'node:stream';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createLogger } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });

  afterAll(() => {
    context.disable();
  });

  it('writes JSON lines with the service, the level label and no secrets', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'identity', level: 'info' }, stream);
    logger.info({ body: { password: 'Secret1!', email: 'a@b.c' } }, 'login');
    expect(lines[0]).toMatchObject({ service: 'identity', level: 'info', msg: 'login', body: { password: '[redacted]', email: 'a@b.c' } });
    expect(lines[0]).not.toHaveProperty('traceId');
  });

  it('stamps the trace and span ids of the active span', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'gateway', level: 'info' }, stream);
    const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    context.with(trace.setSpanContext(context.active(), spanContext), () => logger.info('inside'));
    expect(lines[0]).toMatchObject({ traceId: spanContext.traceId, spanId: spanContext.spanId });
  });
});
