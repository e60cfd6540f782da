import type { ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';
import { spawnNode } from './processes.js';

const STOP_TIMEOUT_MS = 10_000;

/** A child of a group, by the name its stderr lines carry. */
export interface NamedProcess {
  name: string;
  child: ChildProcess;
}

export interface GroupProcessOptions {
  /** The process's stdout (its logs) goes to this file, as a log collector would take it, instead of being dropped. */
  logFile?: string;
  /** Flags for node itself (e.g. `--cpu-prof`). */
  nodeOptions?: string[];
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Sends `child` SIGTERM and resolves once it has exited (at once if it already has). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  const exited = alive(child) ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
  child.kill('SIGTERM');
  await exited;
}

/**
 * Node processes started one by one, each with its own script and environment (the benchmarks
 * start part of the system, or a ceiling beside it): stderr printed with the process's name, a wait
 * for a URL that fails as soon as one of them exits, and a stop of them all.
 */
export class ProcessGroup {
  private readonly members: NamedProcess[] = [];

  start(name: string, script: string, env: NodeJS.ProcessEnv, { logFile, nodeOptions }: GroupProcessOptions = {}): ChildProcess {
    const child = spawnNode(script, { env, nodeOptions, stdout: logFile ? openSync(logFile, 'a') : 'ignore' });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
    this.members.push({ name, child });
    return child;
  }

  /** The started processes not stopped by stop(). */
  get processes(): readonly NamedProcess[] {
    return this.members;
  }

  /** Stops one started process and forgets it, so waitFor() no longer counts its exit as a failure. */
  async stop(child: ChildProcess): Promise<void> {
    await stopProcess(child);
    const index = this.members.findIndex((member) => member.child === child);
    if (index >= 0) this.members.splice(index, 1);
  }

  async stopAll(): Promise<void> {
    const exits = this.members.filter(({ child }) => alive(child)).map(({ child }) => new Promise((resolve) => child.once('exit', resolve)));
    for (const { child } of this.members) child.kill('SIGTERM');
    await Promise.race([Promise.all(exits), sleep(STOP_TIMEOUT_MS)]);
  }

  /**
   * Waits until `url` answers 200. Fails at once when a member has exited; otherwise after
   * `boundMs`, stretched by the time scale (TEST_TIME_SCALE or the machine's load).
   */
  async waitFor(url: string, boundMs = 120_000): Promise<void> {
    const bound = scaled(boundMs);
    const deadline = Date.now() + bound;
    while (Date.now() < deadline) {
      const dead = this.members.find(({ child }) => !alive(child));
      if (dead) throw new Error(`${dead.name} exited (${dead.child.signalCode ?? `code ${dead.child.exitCode}`}) while waiting for ${url}`);
      const answer = await fetch(url, { signal: AbortSignal.timeout(scaled(1_000)) }).catch(() => undefined);
      if (answer?.ok) return;
      await sleep(200);
    }
    throw new Error(`${url} did not answer 200 within ${bound / 1000} s (TEST_TIME_SCALE stretches the bound), every process still running`);
  }
}
