// The peer of the gateway's proxying in bench/src/gateway.ts: a bare Fastify with @fastify/http-proxy
// (the gateway's own proxy plugin) forwarding every request to UPSTREAM, with nothing else: no auth,
// throttles, logging, tracing or metrics. It tells the cost of Node's proxying itself from what the
// gateway adds to it. Started as its own process: PORT, UPSTREAM (http://host:port).
import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(proxy, { upstream: process.env.UPSTREAM ?? '' });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
