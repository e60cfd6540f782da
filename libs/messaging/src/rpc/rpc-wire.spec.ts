import { SERVICE_NAMES } from '@school/config';
import { RPC_CONTRACTS } from '@school/contracts';
import { rpcQueueName } from './rpc-wire.js';

describe('rpcQueueName', () => {
  it('names the queue of each contract after the contract, prefixed; its first word is the service of the topology serving it', () => {
    for (const contract of RPC_CONTRACTS) {
      expect(rpcQueueName(contract, 'test-')).toBe(`test-${contract.name}`);
      expect(SERVICE_NAMES).toContain(contract.name.split('.')[0]);
    }
  });
});
