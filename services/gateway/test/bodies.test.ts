import { chunkedBody, chunkedUploadHead, multipartPrefix, sendOversized, writeThenRead } from '@school/testing';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';

const MIB = 1024 * 1024;

function multipart(fileBytes: number, files = 1): FormData {
  const form = new FormData();
  for (let index = 0; index < files; index += 1) {
    form.append(files === 1 ? 'file' : 'files', new Blob([Buffer.alloc(fileBytes, index + 1)], { type: 'image/png' }), `f${index}.png`);
  }
  return form;
}

/** A body without Content-Length: the gateway cannot refuse it up front and has to count while streaming. */
function chunked(totalBytes: number, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) {
        controller.close();
        return;
      }
      const size = Math.min(chunkBytes, totalBytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size));
    },
  });
}

describe('gateway request bodies', () => {
  let gateway: TestGateway;
  let authorization: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { UPLOAD_MAX_FILE_SIZE_MB: '1' } });
    authorization = await bearer(gateway.issuer, { role: 'admin' });
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  it('answers malformed JSON with 400 VALIDATION_FAILED without forwarding it', async () => {
    const response = await fetch(`${gateway.url}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": "a@b.c",',
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({
      message: 'Validation failed',
      data: null,
      errorCode: 'VALIDATION_FAILED',
      errors: [{ field: 'body', message: 'Malformed JSON body' }],
    });
    expect(gateway.fakes.identity.received).toHaveLength(0);
  });

  it('answers a 2 MB JSON body with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await fetch(`${gateway.url}/api/academic-sessions`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2 * MIB) }),
    });
    expect(response.status).toBe(413);
    expect(await json(response)).toEqual({ message: 'Request body is too large', data: null, errorCode: 'PAYLOAD_TOO_LARGE' });
    expect(gateway.fakes['reference-data'].received).toHaveLength(0);
  });

  it('answers a client that writes 12 MiB of JSON before it reads: 413 declared or chunked, 401 without a token, never a reset', async () => {
    const json = Buffer.from(JSON.stringify({ name: 'x'.repeat(12 * MIB) }));
    const head = (headers: string[]) => ['POST /api/academic-sessions HTTP/1.1', 'host: bodies.test', 'content-type: application/json', ...headers, '', ''].join('\r\n');
    for (const [label, request, body, status] of [
      ['declared', head([`authorization: ${authorization}`, `content-length: ${json.length}`]), json, 413],
      ['chunked', head([`authorization: ${authorization}`, 'transfer-encoding: chunked']), chunkedBody(json), 413],
      ['no token', head([`content-length: ${json.length}`]), json, 401],
    ] as const) {
      const answer = await writeThenRead(gateway.url, request, body);
      expect({ label, errors: answer.errors, status: answer.response.slice(0, 12) }).toEqual({ label, errors: [], status: `HTTP/1.1 ${status}` });
    }
    expect(gateway.fakes['reference-data'].received).toHaveLength(0);
  });

  it('forwards a JSON body byte for byte, undeclared __proto__ included, for the service to judge', async () => {
    const body = '{ "category":"general", "__proto__": {"admin": true}, "message":"héllo" }';
    const response = await fetch(`${gateway.url}/api/mobile/feedback`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    expect(response.status).toBe(200);
    const [received] = gateway.fakes.feedback.received;
    expect(received?.body.toString('utf8')).toBe(body);
    expect(received?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(received?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('refuses content types other than JSON, and multipart outside the upload routes', async () => {
    const text = await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(text.status).toBe(400);
    const form = await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', body: multipart(10) });
    expect(form.status).toBe(400);
    expect((await json(form)).errorCode).toBe('VALIDATION_FAILED');
    expect(gateway.fakes.identity.received).toHaveLength(0);
  });

  it('streams a multipart upload to media unchanged, above the JSON limit', async () => {
    const form = multipart(3 * MIB);
    const expected = Buffer.from(await new Response(form).arrayBuffer());
    const response = await fetch(`${gateway.url}/mobile/uploads?uploadType=avatar`, { method: 'POST', headers: { authorization }, body: form });
    expect(response.status).toBe(200);
    const [received] = gateway.fakes.media.received;
    expect(received?.url).toBe('/api/mobile/uploads?uploadType=avatar');
    expect(received?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(received?.body.length).toBe(expected.length);
  });

  it('accepts several files on /upload/multiple up to ten times the per-file limit', async () => {
    const response = await fetch(`${gateway.url}/api/upload/multiple`, { method: 'POST', headers: { authorization }, body: multipart(900 * 1024, 3) });
    expect(response.status).toBe(200);
    expect(gateway.fakes.media.received).toHaveLength(1);
  });

  it('refuses an upload whose declared length is over the cap with 413 UPLOAD_TOO_LARGE', async () => {
    const response = await fetch(`${gateway.url}/api/upload`, { method: 'POST', headers: { authorization }, body: multipart(3 * MIB) });
    expect(response.status).toBe(413);
    expect(await json(response)).toEqual({ message: 'File is too large', data: null, errorCode: 'UPLOAD_TOO_LARGE' });
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it('cuts a chunked upload once it streams past the cap with 413 UPLOAD_TOO_LARGE', async () => {
    const response = await fetch(`${gateway.url}/upload`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'multipart/form-data; boundary=x' },
      body: chunked(3 * MIB),
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect((await json(response)).errorCode).toBe('UPLOAD_TOO_LARGE');
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it('answers 413 to a client that writes 10 MiB past the cap before it reads, without a reset', async () => {
    const head = chunkedUploadHead('/upload', 'oversized', { authorization });
    const body = chunkedBody(Buffer.concat([multipartPrefix('oversized'), Buffer.alloc(12 * MIB, 0x20)]));
    // Several times over: a close racing the client's writes would fail some of them.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await writeThenRead(gateway.url, head, body);
      expect({ attempt, errors: answer.errors, status: answer.response.slice(0, 12) }).toEqual({ attempt, errors: [], status: 'HTTP/1.1 413' });
      expect(answer.response).toContain('"errorCode":"UPLOAD_TOO_LARGE"');
    }
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it.each([
    ['/api/upload', 2 * MIB],
    ['/mobile/uploads', 6 * MIB],
  ])('cuts a 200 MiB chunked upload to %s after about its cap (%d bytes): 413, memory flat', async (path, cap) => {
    const head = chunkedUploadHead(path, 'oversized', { authorization });
    // The client waits after the cap and what loopback holds in flight besides what the gateway read: the answer must come from that.
    const exchange = await sendOversized(gateway.url, head, multipartPrefix('oversized'), 200 * MIB, { pauseAt: cap + 24 * MIB });
    expect(exchange.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.response).toContain('"errorCode":"UPLOAD_TOO_LARGE"');
    expect(exchange.writtenAtAnswer).toBeGreaterThan(cap);
    expect(exchange.peakRssGrowth).toBeLessThan(64 * MIB);
  });
});
