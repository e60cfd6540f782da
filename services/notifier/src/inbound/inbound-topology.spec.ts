import { ALL_EVENT_TYPES, EVENT_TYPES } from '@school/contracts';
import { INBOUND_EVENTS } from './inbound-topology.js';

describe('the notifier inbound bindings', () => {
  it('binds every event of the catalogue but those no notification comes of (address, audit entry)', () => {
    const others = [EVENT_TYPES.userAddressChanged, EVENT_TYPES.auditEntryRecorded];
    for (const type of others) expect(INBOUND_EVENTS.bindings).not.toContain(type);
    expect(INBOUND_EVENTS.bindings).toEqual(expect.arrayContaining([EVENT_TYPES.accountDeletedNotice, EVENT_TYPES.userErased]));
    expect([...INBOUND_EVENTS.bindings, ...others].sort()).toEqual([...ALL_EVENT_TYPES].sort());
  });
});
