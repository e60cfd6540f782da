import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { scaled } from '@school/testing';

const serviceDir = join(import.meta.dirname, '..');

describe('the identity test kit', () => {
  it('closes an app its suite never closed, so jest exits by itself (no forceExit)', async () => {
    const child = spawn(
      process.execPath,
      [
        '--experimental-vm-modules',
        join(serviceDir, '../../node_modules/jest/bin/jest.js'),
        '--testMatch',
        '**/fixtures/left-open.fixture.ts',
        '--reporters',
        'default',
        '--colors=false',
      ],
      {
        cwd: serviceDir,
        // Plain text whatever the parent's terminal or FORCE_COLOR: the summary line is matched below.
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Its one test takes seconds; a jest still running long after is held open by the app.
    // The wait is cancelled once the child exits: a pending timer would itself keep this jest from exiting.
    const stopWaiting = new AbortController();
    const giveUp = sleep(scaled(120_000), 'still running' as const, { signal: stopWaiting.signal }).catch(() => 'exited' as const);
    const code = await Promise.race([exited, giveUp]);
    stopWaiting.abort();
    if (code === 'still running') child.kill('SIGKILL');
    expect({ code, output: code === 0 ? '' : output.slice(-3000) }).toEqual({ code: 0, output: '' });
    expect(output).toMatch(/Tests:\s+1 passed/);
  }, 180_000);
});
