import { Controller, Get, Injectable, Module, Query, type INestApplication, type Type } from '@nestjs/common';
import { RpcClient } from '@school/messaging';
import { GEOGRAPHY_CHECK, type RpcAnswer, type RpcContract, type RpcRequest } from '@school/contracts';
import { MessagingModule, RpcHandler, RpcModule } from '@school/messaging/nest';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { createServiceApp, HealthModule, ReadinessRegistry } from '@school/service';
import { scaled } from '@school/testing';
import { createLogger } from '@school/telemetry';
import { waitFor } from './support/wait.js';

const CLAIM_ID = '0190b6a4-0000-7000-8000-000000000001';

/** Stands for reference-data's geography service. */
@Injectable()
class GeographyChecker {
  readonly seen: unknown[] = [];

  @RpcHandler(GEOGRAPHY_CHECK)
  async check(request: RpcRequest<typeof GEOGRAPHY_CHECK>): Promise<RpcAnswer<typeof GEOGRAPHY_CHECK>> {
    this.seen.push(request);
    return request.municipalityId === 404 ? { valid: false, reason: 'municipality_not_found' } : { valid: true, claimId: CLAIM_ID };
  }
}

/** Stands for an identity route that asks reference-data before it writes. */
@Controller('address-check')
class AddressCheckController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  async check(@Query('municipalityId') municipalityId: string) {
    const answer = await this.rpc.call(GEOGRAPHY_CHECK, { provinceId: 1, districtId: 2, municipalityId: Number(municipalityId) });
    return { message: 'checked', data: answer, errorCode: null };
  }
}

/** The deadline of the test that waits for it to pass. */
const DEADLINE_MS = 500;
/** The deadline where an answer is expected: one no loaded machine's round trip reaches. */
const ANSWER_DEADLINE_MS = scaled(5_000);

describe('RpcModule: @RpcHandler providers serve, RpcClient calls, no answer is 503 (real RabbitMQ, real socket)', () => {
  let broker: TestBroker;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    broker = await TestBroker.connect(uniqueBrokerPrefix('rpc-nest'));
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await broker.destroy();
  });

  async function startApp(name: string, options: { serves?: RpcContract[]; providers?: Type[]; controllers?: Type[]; deadlineMs?: number }): Promise<INestApplication> {
    @Module({
      imports: [
        HealthModule,
        MessagingModule.forRoot({ url: TEST_AMQP_URL, connectionName: name, namePrefix: broker.prefix, reconnect: { initialMs: 100, maxMs: 400 } }),
        RpcModule.forRoot({ serves: options.serves ?? [], defaultTimeoutMs: options.deadlineMs ?? ANSWER_DEADLINE_MS }),
      ],
      providers: options.providers ?? [],
      controllers: options.controllers ?? [],
    })
    class AppModule {}

    const app = await createServiceApp(AppModule, { logger: createLogger({ service: name, level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
    let closing: Promise<void> | undefined;
    const close = app.close.bind(app);
    app.close = () => (closing ??= close());
    cleanups.push(() => app.close());
    await app.listen(0, '127.0.0.1');
    return app;
  }

  const startServing = () => startApp('reference-data-like', { serves: [GEOGRAPHY_CHECK], providers: [GeographyChecker] });
  const startCalling = (deadlineMs?: number) => startApp('identity-like', { controllers: [AddressCheckController], deadlineMs });

  async function ready(app: INestApplication) {
    const readiness = app.get(ReadinessRegistry);
    await waitFor(async () => (await readiness.report()).status === 'ok', { what: 'readiness' });
    return (await readiness.report()).checks;
  }

  const get = async (app: INestApplication, path: string) => {
    const response = await fetch(`${await app.getUrl()}${path}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  };

  it('a route calling a contract gets the answer of the @RpcHandler of another app; readiness reports rpc-client and rpc-server', async () => {
    const serving = await startServing();
    const calling = await startCalling();
    expect(await ready(serving)).toEqual({ amqp: 'up', 'rpc-client': 'up', 'rpc-server': 'up' });
    expect(await ready(calling)).toEqual({ amqp: 'up', 'rpc-client': 'up' });

    expect(await get(calling, '/address-check?municipalityId=3')).toMatchObject({ status: 200, body: { data: { valid: true, claimId: CLAIM_ID }, errorCode: null } });
    expect(await get(calling, '/address-check?municipalityId=404')).toMatchObject({ status: 200, body: { data: { valid: false, reason: 'municipality_not_found' } } });
    expect(serving.get(GeographyChecker).seen).toEqual([
      { provinceId: 1, districtId: 2, municipalityId: 3 },
      { provinceId: 1, districtId: 2, municipalityId: 404 },
    ]);
  });

  it('with the serving app stopped, the route answers 503 SERVICE_UNAVAILABLE in the envelope at the deadline, never a guess', async () => {
    const serving = await startServing();
    await ready(serving);
    await serving.close();
    const calling = await startCalling(DEADLINE_MS);
    await ready(calling);

    const started = Date.now();
    const response = await get(calling, '/address-check?municipalityId=3');
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' });
    expect(response.headers.get('retry-after')).toBe('5');
  });

  it('with no server ever declared, the route answers 503 at once', async () => {
    const calling = await startCalling();
    await ready(calling);
    const response = await get(calling, '/address-check?municipalityId=3');
    expect(response.status).toBe(503);
    expect(response.body['errorCode']).toBe('SERVICE_UNAVAILABLE');
  });

  it('refuses to start when a served contract has no @RpcHandler', async () => {
    await expect(startApp('no-handler', { serves: [GEOGRAPHY_CHECK] })).rejects.toThrow(/reference-data\.geography\.check has 0 @RpcHandler methods/);
  });
});
