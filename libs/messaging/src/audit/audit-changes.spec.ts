import { auditChanges, SECRET_CHANGED, secretChanged } from './audit-changes.js';
import { AuditRecorder } from './audit-recorder.js';
import { runWithAuditContext } from './audit-context.js';

describe('auditChanges (contract §13)', () => {
  const fields = ['name', 'phone', 'address', 'code', 'isActive'] as const;

  it('names only the fields whose value changed, objects compared by value, dates as ISO strings', () => {
    const before = { name: 'A', phone: null, address: { ward: 1 }, code: 'K-1', isActive: true, updatedAt: new Date(0) };
    const after = { name: 'B', phone: null, address: { ward: 1 }, code: 'K-1', isActive: false, updatedAt: new Date(1) };
    expect(auditChanges(before, after, fields)).toEqual({ name: { from: 'A', to: 'B' }, isActive: { from: true, to: false } });
    expect(auditChanges({ at: new Date(0) }, { at: new Date(1000) }, ['at'])).toEqual({ at: { from: '1970-01-01T00:00:00.000Z', to: '1970-01-01T00:00:01.000Z' } });
  });

  it('answers a create from null and a hard delete to null, leaving out what is null on both sides', () => {
    const row = { name: 'A', phone: null, address: { ward: 2 }, code: 'K-1', isActive: true };
    expect(auditChanges(undefined, row, fields)).toEqual({
      name: { from: null, to: 'A' },
      address: { from: null, to: { ward: 2 } },
      code: { from: null, to: 'K-1' },
      isActive: { from: null, to: true },
    });
    expect(auditChanges(row, undefined, fields)).toEqual({
      name: { from: 'A', to: null },
      address: { from: { ward: 2 }, to: null },
      code: { from: 'K-1', to: null },
      isActive: { from: true, to: null },
    });
  });

  it('never lets a password, token, secret or code through: only that it changed', () => {
    const secrets = ['password', 'passwordHash', 'refreshToken', 'mfaSecret', 'otp', 'recoveryCodes'];
    const before = Object.fromEntries(secrets.map((field) => [field, `old-${field}`]));
    const after = Object.fromEntries(secrets.map((field) => [field, `new-${field}`]));
    const changes = auditChanges(before, after, secrets);
    expect(changes).toEqual(Object.fromEntries(secrets.map((field) => [field, { from: SECRET_CHANGED, to: SECRET_CHANGED }])));
    expect(JSON.stringify(changes)).not.toMatch(/old-|new-/);
    expect(secretChanged()).toEqual({ from: '[changed]', to: '[changed]' });
  });
});

describe('AuditRecorder', () => {
  const recorded: { type: string; payload: Record<string, unknown> }[] = [];
  const outbox = {
    record: async (_tx: unknown, type: string, payload: unknown) => {
      recorded.push({ type, payload: payload as Record<string, unknown> });
      return 'id';
    },
  };
  const recorder = new AuditRecorder(outbox as never);
  const tx = {} as never;

  beforeEach(() => {
    recorded.length = 0;
  });

  it("records audit.entry_recorded with the request's context, cut to the payload's limits", async () => {
    const context = { actor: { publicId: 'p-1', role: 'admin' }, ip: '203.0.113.1', userAgent: 'x'.repeat(600), requestId: 'r-1' };
    await runWithAuditContext(
      () => context,
      () => recorder.record(tx, { action: 'province.create', target: { type: 'province', id: 'p-9' }, changes: { name: { from: null, to: 'P' } } }),
    );
    expect(recorded).toEqual([
      {
        type: 'audit.entry_recorded',
        payload: expect.objectContaining({
          actor: context.actor,
          action: 'province.create',
          target: { type: 'province', id: 'p-9' },
          ip: '203.0.113.1',
          userAgent: 'x'.repeat(512),
          requestId: 'r-1',
        }),
      },
    ]);
  });

  it('takes a named actor over the caller, and records null context outside a request', async () => {
    await recorder.record(tx, { action: 'auth.login_failed', target: { type: 'user', id: 'u-1' }, actor: { publicId: 'u-1', role: 'staff' } });
    await recorder.record(tx, { action: 'user.erase', target: { type: 'user', id: 'u-2' } });
    expect(recorded.map((entry) => entry.payload)).toEqual([
      expect.objectContaining({ actor: { publicId: 'u-1', role: 'staff' }, ip: null, userAgent: null, requestId: null, changes: {} }),
      expect.objectContaining({ actor: null, ip: null }),
    ]);
  });
});
