import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * One address in front of replicas, as a balancer that does not retry (a Kubernetes Service): each
 * new connection goes to the next replica in turn; when that one refuses, the client's connection is
 * reset, none of its bytes read or passed on.
 */
export class RoundRobinBalancer {
  /** Connections each replica was given, by its index, whether it took them or not. */
  readonly given: number[];
  private turn = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly replicas: readonly URL[],
  ) {
    this.given = replicas.map(() => 0);
  }

  static async start(replicaUrls: readonly string[]): Promise<RoundRobinBalancer> {
    const server = createServer({ pauseOnConnect: true });
    const balancer = new RoundRobinBalancer(
      server,
      replicaUrls.map((url) => new URL(url)),
    );
    server.on('connection', (client) => balancer.forward(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(client: Socket): void {
    const index = this.turn++ % this.replicas.length;
    const replica = this.replicas[index]!;
    this.given[index]! += 1;
    const upstream = connect(Number(replica.port), replica.hostname);
    this.sockets.add(client).add(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    const teardown = () => {
      if (connected) client.destroy();
      else client.resetAndDestroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    upstream.on('error', teardown).on('close', teardown);
    client.on('error', teardown).on('close', teardown);
  }
}
