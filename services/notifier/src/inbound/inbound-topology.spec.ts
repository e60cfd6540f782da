import { ALL_EVENT_TYPES, EVENT_TYPES } from '@school/contracts';
import { INBOUND_EVENTS } from './inbound-topology.js';

describe('the notifier inbound bindings', () => {
  it('binds every event of the catalogue but those no notification comes of (address, audit entry, erasure)', () => {
    const others = [EVENT_TYPES.userAddressChanged, EVENT_TYPES.auditEntryRecorded, EVENT_TYPES.userErased];
    for (const type of others) expect(INBOUND_EVENTS.bindings).not.toContain(type);
    expect(INBOUND_EVENTS.bindings).toContain(EVENT_TYPES.accountDeletedNotice);
    expect([...INBOUND_EVENTS.bindings, ...others].sort()).toEqual([...ALL_EVENT_TYPES].sort());
  });
});
