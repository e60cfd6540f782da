import { type ChildProcess, spawn } from 'node:child_process';
import { scaled } from '@school/testing';
import { repositoryRoot } from './repository-root.js';

const root = repositoryRoot;

export interface SupervisorRun {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves when the output matches, rejects when the process exits first or the time (stretched by the time scale) is up. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; elapsedMs: number }>;
}

/** `npm start` as an operator runs it (`node scripts/start.mjs`), with exactly the given environment. */
export function runSupervisor(env: NodeJS.ProcessEnv, args: string[] = ['--no-build']): SupervisorRun {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['scripts/start.mjs', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; elapsedMs: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, elapsedMs: Date.now() - startedAt })),
  );
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, quietTimeoutMs) {
      const timeoutMs = scaled(quietTimeoutMs);
      return new Promise((resolve, reject) => {
        const done = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (pattern.test(text)) done();
        };
        const timer = setTimeout(() => done(new Error(`no ${pattern} within ${timeoutMs} ms:\n${text.slice(-3000)}`)), timeoutMs);
        listeners.add(check);
        void exited.then(() => setImmediate(() => done(pattern.test(text) ? undefined : new Error(`exited before ${pattern}:\n${text.slice(-3000)}`))));
        check();
      });
    },
  };
}
