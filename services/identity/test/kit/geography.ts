import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE, type RpcAnswer, type RpcRequest } from '@school/contracts';
import { AmqpConnection, RpcServer, silentLogger } from '@school/messaging';
import { TEST_AMQP_URL } from '@school/messaging/testing';
import { scaled } from '@school/testing';

/**
 * Reference-data's geography as the stand-in below knows it: province 1 holds district 10, which
 * holds municipality 100; province 2 holds district 20, which holds municipality 200.
 */
const PROVINCES = new Set([1, 2]);
const DISTRICT_PROVINCE = new Map([
  [10, 1],
  [20, 2],
]);
const MUNICIPALITY_DISTRICT = new Map([
  [100, 10],
  [200, 20],
]);

export const KATHMANDU = { provinceId: 1, districtId: 10, municipalityId: 100 };

/** Waits up to 10 s (stretched by the time scale) for `probe`. */
export async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + scaled(10_000);
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Reference-data's GEOGRAPHY_CHECK and GEOGRAPHY_RELEASE on a suite's broker prefix, answering from
 * the geography above with a new claim each time: what it was asked, the claims it answered and
 * those identity released, in order. `start` serves until `stop`; `close` ends it all.
 */
export interface GeographyStandIn {
  readonly asked: RpcRequest<typeof GEOGRAPHY_CHECK>[];
  readonly claims: string[];
  readonly released: string[];
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

function checkGeography({ provinceId, districtId, municipalityId }: RpcRequest<typeof GEOGRAPHY_CHECK>, claims: string[]): RpcAnswer<typeof GEOGRAPHY_CHECK> {
  if (!PROVINCES.has(provinceId)) return { valid: false, reason: 'province_not_found' };
  const districtProvince = DISTRICT_PROVINCE.get(districtId);
  if (districtProvince === undefined) return { valid: false, reason: 'district_not_found' };
  const municipalityDistrict = MUNICIPALITY_DISTRICT.get(municipalityId);
  if (municipalityDistrict === undefined) return { valid: false, reason: 'municipality_not_found' };
  if (districtProvince !== provinceId) return { valid: false, reason: 'district_not_in_province' };
  if (municipalityDistrict !== districtId) return { valid: false, reason: 'municipality_not_in_district' };
  claims.push(randomUUID());
  return { valid: true, claimId: claims.at(-1) as string };
}

export function geographyStandIn(brokerPrefix: string): GeographyStandIn {
  const connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'reference-data-stand-in', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
  const asked: RpcRequest<typeof GEOGRAPHY_CHECK>[] = [];
  const claims: string[] = [];
  const released: string[] = [];
  let server: RpcServer | undefined;
  const stop = async () => {
    await server?.stop();
    server = undefined;
  };
  return {
    asked,
    claims,
    released,
    async start() {
      const started = new RpcServer(connection, {
        prefix: brokerPrefix,
        routes: [
          {
            contract: GEOGRAPHY_CHECK,
            handler: (request) => {
              asked.push(request as RpcRequest<typeof GEOGRAPHY_CHECK>);
              return checkGeography(request as RpcRequest<typeof GEOGRAPHY_CHECK>, claims);
            },
          },
          { contract: GEOGRAPHY_RELEASE, handler: (request) => (released.push((request as RpcRequest<typeof GEOGRAPHY_RELEASE>).claimId), { released: true }) },
        ],
        prefetch: 10,
        logger: silentLogger,
      });
      started.start();
      server = started;
      await until(() => started.isConsuming(), 'the GEOGRAPHY_CHECK server');
    },
    stop,
    async close() {
      await stop();
      await connection.close();
    },
  };
}
