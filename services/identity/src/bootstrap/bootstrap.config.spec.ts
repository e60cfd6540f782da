import { type BootstrapConfig, DEV_BOOTSTRAP_ADMIN_PASSWORD, refuseWeakPasswordInProduction } from './bootstrap.config.js';

function config(password: string, NODE_ENV = 'production'): BootstrapConfig {
  return { BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com', BOOTSTRAP_ADMIN_PASSWORD: password, NODE_ENV };
}

describe('refuseWeakPasswordInProduction (contract §9)', () => {
  it('refuses the development password in production, in one line naming the variable', () => {
    expect(() => refuseWeakPasswordInProduction(config(DEV_BOOTSTRAP_ADMIN_PASSWORD))).toThrow(
      /^Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: must be set to a password of your own in production \(no admin exists/,
    );
  });

  it.each(['Password1!', 'Welcome2024!'])('refuses %s in production as too easy to guess', (password) => {
    expect(() => refuseWeakPasswordInProduction(config(password))).toThrow(/^Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: is too easy to guess[^\n]*$/);
  });

  it('refuses a breached password in production', () => {
    expect(() => refuseWeakPasswordInProduction(config('P@ssw0rd'))).toThrow(/^Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: is too common/);
  });

  it('accepts a strong password in production, and any outside it', () => {
    expect(() => refuseWeakPasswordInProduction(config('Quartz-Lantern-47'))).not.toThrow();
    expect(() => refuseWeakPasswordInProduction(config('Password1!', 'development'))).not.toThrow();
    expect(() => refuseWeakPasswordInProduction(config(DEV_BOOTSTRAP_ADMIN_PASSWORD, 'test'))).not.toThrow();
  });
});
