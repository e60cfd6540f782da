import { Injectable } from '@nestjs/common';
import { answersWithin } from '@school/async';

export type ReadinessCheck = () => Promise<unknown>;

export type DependencyStatus = 'up' | 'down';

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, DependencyStatus>;
}

const CHECK_TIMEOUT_MS = 2_000;

/** Every connection a service holds registers how to tell it is usable; /health/ready asks them all. */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** From the first shutdown signal on, the service reports itself unready so traffic moves away. */
  markDraining(): void {
    this.draining = true;
  }

  async report(): Promise<ReadinessReport> {
    const entries = await Promise.all([...this.checks].map(async ([name, check]) => [name, await probe(check)] as const));
    const checks = Object.fromEntries(entries);
    const healthy = !this.draining && entries.every(([, status]) => status === 'up');
    return { status: healthy ? 'ok' : 'unavailable', checks };
  }
}

async function probe(check: ReadinessCheck): Promise<DependencyStatus> {
  return (await answersWithin(check, CHECK_TIMEOUT_MS)) ? 'up' : 'down';
}
