import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { success } from '@school/http';
import { ZodPipe } from '@school/http/nest';
import { createLogger } from '@school/telemetry';
import { z } from 'zod';
import { createServiceApp } from '../src/bootstrap.js';
import { HealthModule } from '../src/health.module.js';
import { ReadinessRegistry } from '../src/readiness.js';

const echoBody = z.strictObject({ name: z.string().min(1).max(10) });

@Controller('echo')
class EchoController {
  @Post()
  echo(@Body(new ZodPipe(echoBody)) body: z.infer<typeof echoBody>) {
    return success('Echoed', body);
  }

  @Get('items/:id')
  item(@Param('id') id: string) {
    return success('Item', { length: id.length });
  }

  @Get('boom')
  boom(): never {
    throw new Error('relation "secret_table" does not exist');
  }
}

@Module({ imports: [HealthModule], controllers: [EchoController] })
class TestModule {}

let app: NestFastifyApplication;
let base: string;

beforeAll(async () => {
  app = await createServiceApp(TestModule, { logger: createLogger({ service: 'test', level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = await app.getUrl();
});

afterAll(async () => {
  await app.close();
});

const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => fetch(`${base}/echo`, { method: 'POST', headers, body });

describe('a service app', () => {
  it('leaves a long path parameter to its route (the gateway bounds the URL), not to the router', async () => {
    const response = await fetch(`${base}/echo/items/${'x'.repeat(1500)}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Item', data: { length: 1500 }, errorCode: null });
  });

  it('answers an error raised while routing in the envelope, never with the path or the framework', async () => {
    const response = await fetch(`${base}/echo/items/%E0%A4%A`);
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({
      message: expect.any(String),
      data: null,
      errorCode: 'VALIDATION_FAILED',
      errors: [{ field: 'path', message: 'Malformed percent-encoding' }],
    });
    expect(body).not.toMatch(/FST_|items/);
  });

  it('answers a valid body in the success envelope with a request id', async () => {
    const response = await post(JSON.stringify({ name: 'ok' }), { 'content-type': 'application/json', 'x-request-id': 'req-1' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.json()).toEqual({ message: 'Echoed', data: { name: 'ok' }, errorCode: null });
  });

  it('keeps the request id the gateway kept (base64 characters included), and replaces one it would not keep', async () => {
    const kept = await post(JSON.stringify({ name: 'ok' }), { 'content-type': 'application/json', 'x-request-id': 'dGVzdA+/=' });
    expect(kept.headers.get('x-request-id')).toBe('dGVzdA+/=');
    const replaced = await post(JSON.stringify({ name: 'ok' }), { 'content-type': 'application/json', 'x-request-id': '<id>' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an invalid or undeclared field with VALIDATION_FAILED and errors[]', async () => {
    const response = await post(JSON.stringify({ name: '', extra: 1 }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: unknown };
    expect(body).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
    expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'extra' }), expect.objectContaining({ field: 'name' })]));
  });

  it('refuses __proto__ and constructor.prototype as undeclared fields', async () => {
    for (const raw of ['{"name":"a","__proto__":{"x":1}}', '{"name":"a","constructor":{"prototype":{"x":1}}}']) {
      const response = await post(raw);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const malformed = await post('{"name":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ errorCode: 'VALIDATION_FAILED', data: null });

    const huge = await post(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ errorCode: 'PAYLOAD_TOO_LARGE', data: null });
  });

  it('answers unknown routes and known paths with another method with 404 NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/nowhere'],
      ['DELETE', '/echo'],
    ] as const) {
      const response = await fetch(`${base}${path}`, { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ errorCode: 'NOT_FOUND', data: null });
    }
  });

  it('never leaks the internals of an unexpected error', async () => {
    const response = await fetch(`${base}/echo/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/secret_table|at .*\.ts/);
    expect(JSON.parse(text)).toEqual({ message: 'Internal server error', data: null, errorCode: 'INTERNAL_ERROR' });
  });

  it('reports liveness and readiness from the registered checks', async () => {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const registry = app.get(ReadinessRegistry);
    registry.register('broken', async () => {
      throw new Error('down');
    });
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', data: { checks: { broken: 'down' } } });
  });
});

describe("a service app's metrics", () => {
  it('serves GET /metrics with requests counted by route pattern, method and status', async () => {
    await post(JSON.stringify({ name: 'ok' }));
    await fetch(`${base}/echo/boom`);
    await fetch(`${base}/nowhere/${Date.now()}`);
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/echo",method="POST",status_code="201"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/echo\/boom",method="GET",status_code="500"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="unmatched",method="GET",status_code="404"\} [1-9]/);
    expect(text).not.toContain('/nowhere');
  });
});
