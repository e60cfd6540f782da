import { ALL_EVENT_TYPES, EVENT_TYPES } from '@school/contracts';
import { INBOUND_EVENTS } from './inbound-topology.js';

describe('the notifier inbound bindings', () => {
  it('binds every event of the catalogue but the committed address, which is no notification', () => {
    expect(INBOUND_EVENTS.bindings).not.toContain(EVENT_TYPES.userAddressChanged);
    expect([...INBOUND_EVENTS.bindings, EVENT_TYPES.userAddressChanged].sort()).toEqual([...ALL_EVENT_TYPES].sort());
  });
});
