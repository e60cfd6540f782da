import Fastify, { type FastifyInstance } from 'fastify';
import { createMetricsRegistry, instrumentHttpRoutes, registerMetricsRoute, type Registry } from '../src/index.js';

describe('per-route HTTP metrics', () => {
  let app: FastifyInstance;
  let registry: Registry;
  let base: string;

  beforeAll(async () => {
    registry = createMetricsRegistry();
    app = Fastify();
    instrumentHttpRoutes(app, registry);
    registerMetricsRoute(app, registry);
    app.get('/items/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      return id === 'missing' ? reply.code(404).send({ found: false }) : { id };
    });
    await app.register(
      async (child) => {
        child.post('/things', async (_request, reply) => reply.code(201).send({}));
      },
      { prefix: '/api' },
    );
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(() => app.close());

  it('labels requests with the route pattern as registered, the method and the status, never the raw URL', async () => {
    await fetch(`${base}/items/1`);
    await fetch(`${base}/items/2`);
    await fetch(`${base}/items/missing`);
    await fetch(`${base}/items/3`, { method: 'HEAD' });
    await fetch(`${base}/api/things`, { method: 'POST' });
    await fetch(`${base}/no/such/path/${Math.random()}`);

    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('http_request_duration_seconds_count{route="/items/:id",method="GET",status_code="200"} 2');
    expect(text).toContain('http_request_duration_seconds_count{route="/items/:id",method="GET",status_code="404"} 1');
    // Fastify's implicit HEAD twin shares the GET route's observer: counted once, under HEAD.
    expect(text).toContain('http_request_duration_seconds_count{route="/items/:id",method="HEAD",status_code="200"} 1');
    expect(text).toContain('http_request_duration_seconds_count{route="/api/things",method="POST",status_code="201"} 1');
    expect(text).toContain('http_request_duration_seconds_count{route="unmatched",method="GET",status_code="404"} 1');
    expect(text).not.toMatch(/route="\/items\/(1|2|missing)"/);
    expect(text).not.toContain('/no/such/path');
  });

  it('serves the Prometheus text format with the process metrics', async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(await response.text()).toContain('process_cpu_seconds_total');
  });
});
