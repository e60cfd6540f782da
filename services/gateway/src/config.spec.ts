import { parseConfig } from '@school/config';
import { gatewayConfigRules, gatewayEnv } from './config.js';

describe('gateway configuration', () => {
  it('reads TRUST_PROXY as the number of trusted proxies, true meaning one', () => {
    const trusted = (value?: string) => parseConfig(gatewayEnv, value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;
    expect([trusted(), trusted(''), trusted('false'), trusted('0'), trusted('true'), trusted('YES'), trusted('1'), trusted('3')]).toEqual([0, 0, 0, 0, 1, 1, 1, 3]);
    expect(() => trusted('maybe')).toThrow(/TRUST_PROXY/);
    expect(() => trusted('-1')).toThrow(/TRUST_PROXY/);
  });

  it('defaults the HTTP timeouts to the contract: 30 s bodies, 10 min uploads, 10 s without an upload byte', () => {
    const config = parseConfig(gatewayEnv, {});
    expect(config.REQUEST_BODY_TIMEOUT_MS).toBe(30_000);
    expect(config.UPLOAD_BODY_TIMEOUT_MS).toBe(600_000);
    expect(config.UPLOAD_IDLE_TIMEOUT_MS).toBe(10_000);
    expect(config.HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(config.REQUEST_BODY_TIMEOUT_MS);
    expect(config.KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  });

  it('requires its own FORWARDING_SECRET in production, and generates one elsewhere (docs/decisions/0007)', () => {
    const configOf = (env: Record<string, string>) => parseConfig(gatewayEnv, env, gatewayConfigRules);
    expect(() => configOf({ NODE_ENV: 'production' })).toThrow(/^Invalid configuration: FORWARDING_SECRET: must be set to a secret of your own in production$/);
    expect(configOf({ NODE_ENV: 'production', FORWARDING_SECRET: 'a-production-forwarding-secret-of-32-chars' }).FORWARDING_SECRET).toHaveLength(42);
    expect(configOf({}).FORWARDING_SECRET).toBeUndefined();
  });
});
