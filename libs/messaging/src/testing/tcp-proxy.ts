import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';

/**
 * A TCP proxy in front of the broker (or any server) that a test can cut: every open connection
 * is dropped and new ones are refused until `resume()`, as when the broker goes away. `delay()`
 * holds every chunk in both directions for a while, as a slow network does.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private delayMs = 0;
  private constructor(
    private readonly target: { host: string; port: number },
    private listenPort: number,
  ) {}

  static async start(targetUrl: string): Promise<TcpProxy> {
    const url = new URL(targetUrl);
    const proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5672) }, 0);
    await proxy.resume();
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  /** `targetUrl` with its host and port replaced by the proxy's. */
  urlFor(targetUrl: string): string {
    const url = new URL(targetUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.listenPort);
    return url.toString();
  }

  get connectionCount(): number {
    return this.sockets.size;
  }

  /** Delays every chunk forwarded from now on, on open and new connections (0 restores). */
  delay(ms: number): void {
    this.delayMs = ms;
  }

  async resume(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => resolve());
    });
    this.listenPort = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Drops every connection now and refuses new ones until resume(). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private pipe(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const teardown = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', teardown).on('close', teardown);
    upstream.on('error', teardown).on('close', teardown);
    client.pipe(this.delayed()).pipe(upstream);
    upstream.pipe(this.delayed()).pipe(client);
  }

  /** Holds each chunk for the current delay, never releasing one before an earlier one. */
  private delayed(): Transform {
    const delayOf = () => this.delayMs;
    let lastRelease = 0;
    let pending = Promise.resolve();
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const releaseAt = Math.max(Date.now() + delayOf(), lastRelease);
        if (releaseAt <= Date.now()) return done(null, chunk);
        lastRelease = releaseAt;
        pending = new Promise((resolve) => setTimeout(() => resolve(void this.push(chunk)), releaseAt - Date.now()));
        done();
      },
      flush(done) {
        void pending.then(() => done());
      },
    });
  }
}
