import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * One address in front of replicas, as a balancer that does not retry (a Kubernetes Service): each
 * new connection goes to the next replica in turn; when that one refuses, the client's connection is
 * reset, none of its bytes read or passed on.
 */
export class RoundRobinBalancer {
  /** Connections each replica was given, by its index, whether it took them or not. */
  given: number[] = [];
  private replicas: URL[] = [];
  private turn = 0;
  private readonly clients = new Set<Socket>();
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(replicaUrls: readonly string[]): Promise<RoundRobinBalancer> {
    const server = createServer({ pauseOnConnect: true });
    const balancer = new RoundRobinBalancer(server);
    balancer.setReplicas(replicaUrls);
    server.on('connection', (client) => balancer.forward(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * Ends every client connection (call it between requests, as a balancer's idle timeout would): the
   * next request opens one. Resolves once each client has closed its side too, so that none still
   * holds the connection as reusable: one that had not yet seen it close sent its next request on
   * it, lost it, and spent its one retry on the dead replica (seen on a loaded machine).
   */
  async dropConnections(): Promise<void> {
    await Promise.all(
      [...this.clients].map(
        (client) =>
          new Promise((resolve) => {
            client.once('close', resolve);
            client.end();
          }),
      ),
    );
  }

  setReplicas(replicaUrls: readonly string[]): void {
    this.replicas = replicaUrls.map((url) => new URL(url));
    this.given = this.replicas.map(() => 0);
    this.turn = 0;
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
    this.clients.add(client);
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
      this.clients.delete(client);
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    upstream.on('error', teardown).on('close', teardown);
    client.on('error', teardown).on('close', teardown);
  }
}
