import { z } from 'zod';
import { commonEnv, databaseEnv, env, parseConfig } from './index.js';

describe('parseConfig', () => {
  it('applies the contract defaults when nothing is set', () => {
    const config = parseConfig({ ...commonEnv, ...databaseEnv, PORT: env.port(3001) }, {});
    expect(config.PORT).toBe(3001);
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/postgres');
    expect(config.PUBLIC_BASE_URL).toBe('http://localhost:3000');
  });

  it('names the variable in one line when a value is bad', () => {
    expect(() => parseConfig({ PORT: env.port(3000) }, { PORT: 'seventy' })).toThrow(/^Invalid configuration: PORT: /);
    expect(() => parseConfig({ ...databaseEnv }, { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a URL/);
  });

  it('checks rules over several variables after the values, one line naming each variable at fault', () => {
    const shape = { NODE_ENV: z.string().default('development'), SECRET: z.string().optional() };
    const rules = [
      (config: { NODE_ENV: string; SECRET?: string | undefined }) =>
        config.NODE_ENV === 'production' && !config.SECRET ? { variable: 'SECRET', problem: 'must be set in production' } : undefined,
    ];
    expect(parseConfig(shape, {}, rules).NODE_ENV).toBe('development');
    expect(parseConfig(shape, { NODE_ENV: 'production', SECRET: 's' }, rules).SECRET).toBe('s');
    expect(() => parseConfig(shape, { NODE_ENV: 'production' }, rules)).toThrow(/^Invalid configuration: SECRET: must be set in production$/);
  });

  it('treats an empty string as unset', () => {
    expect(parseConfig({ PORT: env.port(3000) }, { PORT: '' }).PORT).toBe(3000);
  });

  it('parses boolean flags strictly', () => {
    const shape = { TRUST_PROXY: env.flag(false) };
    expect(parseConfig(shape, { TRUST_PROXY: '1' }).TRUST_PROXY).toBe(true);
    expect(() => parseConfig(shape, { TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
    expect(parseConfig({ X: z.string().default('a') }, {}).X).toBe('a');
  });
});
