import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from '@school/testing';
import { repositoryRoot } from './repository-root.js';

const run = promisify(execFile);
const spectral = join(repositoryRoot, 'node_modules/.bin/spectral');
const ruleset = join(repositoryRoot, '.spectral.yaml');

export interface LintFinding {
  code: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  /** Where in the document, as a JSON path (`paths./api/users.get.responses`). */
  at: string;
  message: string;
}

/** Spectral's numeric severities. */
const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;

interface SpectralResult {
  code: string | number;
  severity: number;
  path: (string | number)[];
  message: string;
}

/** Spectral CLI (npm `@stoplight/spectral-cli`) with the repository's `.spectral.yaml` over a document: every finding. */
export async function lintDocument(document: unknown): Promise<LintFinding[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    const report = join(dir, 'report.json');
    await writeFile(file, JSON.stringify(document));
    // Exit status 1 means findings at the failure severity: the report says which, so it is read either way.
    await run(spectral, ['lint', '--quiet', '--ruleset', ruleset, '--format', 'json', '--output', report, file], { cwd: repositoryRoot, timeout: scaled(60_000) }).catch(
      (error: { code?: unknown }) => {
        if (error.code !== 1) throw error;
      },
    );
    const results = JSON.parse(await readFile(report, 'utf8')) as SpectralResult[];
    return results.map((result) => ({
      code: String(result.code),
      severity: SEVERITIES[result.severity] ?? 'error',
      at: result.path.join('.'),
      message: result.message,
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
