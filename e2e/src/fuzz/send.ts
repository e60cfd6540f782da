import { request as httpRequest, Agent } from 'node:http';
import type { WireRequest } from './materialize.js';

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most BODY_CAP bytes of it. */
  body: Buffer;
  /** The request got no answer within the deadline, or its connection failed. */
  failure?: string;
}

const BODY_CAP = 1024 * 1024;
/** An event stream never ends: its head and first bytes are enough. */
const STREAM_READ_MS = 300;

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Sends bytes exactly as given (no normalisation of the path), with a deadline. */
export function send(base: URL, wire: WireRequest, timeoutMs: number): Promise<WireResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (response: WireResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(response);
    };
    const request = httpRequest({
      agent,
      host: base.hostname,
      port: base.port,
      method: wire.method,
      path: wire.target,
      headers: { ...wire.headers, ...(wire.body && { 'content-length': String(wire.body.length) }) },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: 0, headers: {}, body: Buffer.alloc(0), failure: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('response', (response) => {
      const done = () => finish({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      if (String(response.headers['content-type']).startsWith('text/event-stream')) {
        setTimeout(() => {
          response.destroy();
          done();
        }, STREAM_READ_MS);
      }
      response.on('data', (chunk: Buffer) => {
        if (size < BODY_CAP) chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', done);
      response.on('error', done);
    });
    // The server may answer (413, 401) and close before reading a large body: the answer counts.
    request.on('error', (error) => finish({ status: 0, headers: {}, body: Buffer.alloc(0), failure: `connection failed: ${error.message}` }));
    if (wire.body) request.end(wire.body);
    else request.end();
  });
}

export function closeConnections(): void {
  agent.destroy();
}
