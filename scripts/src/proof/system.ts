// The whole system for `npm run faults` and `npm run soak`, started by @school/system-harness as
// the e2e suites start it, with mail to an SMTP sink of its own and (unless `proxied: false`, the
// soak) every dependency reached through a TCP proxy this run owns, so a fault touches nothing
// else on the machine.
import { type RunningSystem, startSystem } from '@school/system-harness';
import { type MailSink, startMailSink } from './mail-sink.js';

export interface ProofSystem extends RunningSystem {
  sink: MailSink;
}

export interface ProofSystemOptions {
  label?: string;
  /** Applied over the defaults (e.g. EMAIL_BACKOFF_MS). */
  env?: Record<string, string>;
  /** The processes' output stays unprinted (default). */
  quiet?: boolean;
  proxied?: boolean;
}

/**
 * Starts the system. Returns the harness's system (gateway URL, the direct database URL for
 * invariant checks, the proxies, process control) with the mail sink.
 */
export async function startProofSystem({ label, env = {}, quiet = true, proxied = true }: ProofSystemOptions = {}): Promise<ProofSystem> {
  const sink = await startMailSink();
  try {
    const system = await startSystem({
      label,
      proxied,
      forwardOutput: !quiet,
      env: (isolated) => {
        const keyPrefix = (isolated['AMQP_NAME_PREFIX'] ?? '').replace(/\.$/, ':');
        return {
          LOG_LEVEL: 'warn',
          SMTP_URL: sink.url,
          REDIS_KEY_PREFIX: keyPrefix,
          CACHE_KEY_PREFIX: keyPrefix,
          // Guest traffic comes from many addresses through one trusted proxy (X-Forwarded-For).
          TRUST_PROXY: '1',
          ...env,
        };
      },
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
