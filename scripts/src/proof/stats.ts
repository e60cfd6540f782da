// Figures of the proof commands: percentiles, and the resident memory of a process from /proc.
import { readFile } from 'node:fs/promises';

export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const median = (values: readonly number[]): number | undefined => percentile(values, 50);

/** Resident set size of `pid` in MB (Linux), undefined when it cannot be read. */
export async function rssMb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}
