import { ALL_EVENT_TYPES, EVENT_TYPES } from '@school/contracts';
import { INBOUND_EVENTS } from './inbound-topology.js';

describe('the notifier inbound bindings', () => {
  it('binds every event of the catalogue but the committed address, the audit entries and the erasure, which other services consume', () => {
    const others = [EVENT_TYPES.userAddressChanged, EVENT_TYPES.auditEntryRecorded, EVENT_TYPES.userErased];
    for (const type of others) expect(INBOUND_EVENTS.bindings).not.toContain(type);
    expect([...INBOUND_EVENTS.bindings, ...others].sort()).toEqual([...ALL_EVENT_TYPES].sort());
  });
});
