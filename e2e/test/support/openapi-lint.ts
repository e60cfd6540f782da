import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from '@school/testing';
import { repositoryRoot } from './repository-root.js';

const run = promisify(execFile);
const bin = (name: string) => join(repositoryRoot, 'node_modules/.bin', name);

export interface LintFinding {
  code: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  /** Where in the document (`paths./api/users.get.responses`, `#/tags/0`). */
  at: string;
  message: string;
}

export type Linter = (document: unknown) => Promise<LintFinding[]>;

/**
 * Runs a linter's CLI on the document written to a temporary file; the linter writes its JSON
 * report to `report`. Exit status 1 means findings at the failure severity: the report says which,
 * so it is read either way; any other failure (a broken ruleset) throws.
 */
async function lintFile(document: unknown, command: (file: string, report: string) => { bin: string; args: string[]; reportOn: 'file' | 'stdout' }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    const report = join(dir, 'report.json');
    await writeFile(file, JSON.stringify(document));
    const { bin: executable, args, reportOn } = command(file, report);
    const environment = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const options = { cwd: repositoryRoot, env: environment, timeout: scaled(60_000), maxBuffer: 64 * 1024 * 1024 };
    const stdout = await run(executable, args, options).then(
      (result) => result.stdout,
      (error: { code?: unknown; stdout?: string }) => {
        if (error.code !== 1) throw error;
        return error.stdout ?? '';
      },
    );
    return reportOn === 'file' ? await readFile(report, 'utf8') : stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Spectral's numeric severities. */
const SPECTRAL_SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;

/** Spectral CLI (`@stoplight/spectral-cli`) with the repository's `.spectral.yaml`: every finding. */
export const spectralLint: Linter = async (document) => {
  const report = await lintFile(document, (file, output) => ({
    bin: bin('spectral'),
    args: ['lint', '--quiet', '--ruleset', join(repositoryRoot, '.spectral.yaml'), '--format', 'json', '--output', output, file],
    reportOn: 'file',
  }));
  return (JSON.parse(report) as { code: string | number; severity: number; path: (string | number)[]; message: string }[]).map((result) => ({
    code: String(result.code),
    severity: SPECTRAL_SEVERITIES[result.severity] ?? 'error',
    at: result.path.join('.'),
    message: result.message,
  }));
};

/** Redocly CLI (`@redocly/cli`) with the repository's `redocly.yaml`: every finding. */
export const redoclyLint: Linter = async (document) => {
  const report = await lintFile(document, (file) => ({
    bin: bin('redocly'),
    args: ['lint', '--config', join(repositoryRoot, 'redocly.yaml'), '--format', 'json', file],
    reportOn: 'stdout',
  }));
  const { problems } = JSON.parse(report) as { problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer?: string }[] }[] };
  return problems.map((problem) => ({
    code: problem.ruleId,
    severity: problem.severity === 'warn' ? 'warning' : 'error',
    at: problem.location[0]?.pointer ?? '',
    message: problem.message,
  }));
};
