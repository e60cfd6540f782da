import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Every scenario but notifier-kill, which waits out a killed job's lock (20 s in a quick run). */
const SCENARIOS = ['rabbitmq-cut', 'notifier-restart', 'redis-cut', 'postgres-cut', 'identity-down', 'smtp-refusing'];

function runFaults(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/dist/faults.js', ...args], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run faults (quick: small bursts, 3 s outages, SMTP refusing 5 s)', () => {
  it('passes every scenario against the running system and says so per scenario', async () => {
    const { code, output } = await runFaults(['--quick', '--only', SCENARIOS.join(',')]);
    for (const name of SCENARIOS) expect(output).toMatch(new RegExp(`^ {3}PASS ${name} `, 'm'));
    expect(output).toContain(`[faults] ${SCENARIOS.length} passed, 0 failed`);
    expect(code).toBe(0);
  }, 300_000);

  it('refuses an unknown scenario name before starting anything', async () => {
    const { code, output } = await runFaults(['--only', 'no-such-scenario']);
    expect(code).toBe(2);
    expect(output).toContain('unknown scenario no-such-scenario');
  });
});
