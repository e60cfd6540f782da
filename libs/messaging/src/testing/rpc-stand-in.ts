import { setTimeout as sleep } from 'node:timers/promises';
import { AmqpConnection } from '../amqp/amqp-connection.js';
import { silentLogger } from '../logger.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { TEST_AMQP_URL } from './test-broker.js';

/** Identity as a suite's caller of another service's RPC: a client on the suite's broker prefix. */
export interface RpcStandIn {
  rpc: RpcClient;
  close(): Promise<void>;
}

/** Connects, and waits up to `readyWithinMs` for the client to be ready to call (each call then waits `callTimeoutMs`). */
export async function rpcStandIn(prefix: string, { callTimeoutMs, readyWithinMs }: { callTimeoutMs: number; readyWithinMs: number }): Promise<RpcStandIn> {
  const connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'identity-stand-in', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
  const rpc = new RpcClient(connection, { prefix, logger: silentLogger, defaultTimeoutMs: callTimeoutMs });
  const deadline = Date.now() + readyWithinMs;
  while (!rpc.isReady() && Date.now() < deadline) await sleep(25);
  return {
    rpc,
    async close() {
      await rpc.close();
      await connection.close();
    },
  };
}
