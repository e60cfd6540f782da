// The whole system for `npm run faults` and `npm run soak`, started by @school/system-harness as
// the e2e suites start it, with mail to an SMTP sink of its own and (unless `proxied: false`, the
// soak) every dependency reached through a TCP proxy this run owns, so a fault touches nothing
// else on the machine.
import { startMailSink } from './mail-sink.mjs';

/** The built harness (after `npm run build`); one clear line when it is missing. */
async function harness() {
  return import('@school/system-harness').catch(() => {
    throw new Error('libs/system-harness/dist is missing: run `npm run build` first');
  });
}

/**
 * Starts the system. `env` is applied over the defaults (e.g. EMAIL_BACKOFF_MS). Returns the
 * harness's system (gateway URL, the direct database URL for invariant checks, the proxies, process
 * control) with the mail sink.
 */
export async function startProofSystem({ label, env = {}, quiet = true, proxied = true } = {}) {
  const { startSystem } = await harness();
  const sink = await startMailSink();
  try {
    const system = await startSystem({
      label,
      proxied,
      forwardOutput: !quiet,
      env: (isolated) => ({
        LOG_LEVEL: 'warn',
        SMTP_URL: sink.url,
        REDIS_KEY_PREFIX: isolated.AMQP_NAME_PREFIX.replace(/\.$/, ':'),
        CACHE_KEY_PREFIX: isolated.AMQP_NAME_PREFIX.replace(/\.$/, ':'),
        // Guest traffic comes from many addresses through one trusted proxy (X-Forwarded-For).
        TRUST_PROXY: '1',
        ...env,
      }),
      processEnv: { identity: { UV_THREADPOOL_SIZE: '3' } },
    });
    return {
      ...system,
      sink,
      async shutdown() {
        await system.shutdown();
        await sink.close();
      },
    };
  } catch (error) {
    await sink.close();
    throw error;
  }
}
