// `npm test`'s typecheck and lint of the whole workspace, in one process over one TypeScript program:
// the root tsconfig.json, which holds every project's files under the same options
// (e2e/test/typecheck.test.ts). `tsc -p tsconfig.json --noEmit` and ESLint's type-checked rules
// (`LINT_WHOLE_WORKSPACE=1 npx eslint .`) each made that program, parsing, binding and checking every
// file again; here ESLint's rules read the types the typecheck has already worked out (measured on a
// quiet 2-core machine: 37 s of CPU against 61-70 s for the two commands). Reports type errors as tsc
// does and ESLint's findings as `eslint` does; exits 1 on either. `node scripts/dist/typecheck-and-lint.js
// [folder]`: the workspace in folder (its tsconfig.json and eslint.config.mjs), by default this one.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('../..', import.meta.url));
// ESLint's cache of the files it found clean (scripts/src/test.ts says when it is read).
const ESLINT_CACHE = { cache: true, cacheStrategy: 'content', cacheLocation: join(root, 'node_modules/.cache/eslint/') } as const;

const program = workspaceProgram();
const typeErrors = reportTypeErrors(program);
const lintErrors = await lint(program);
process.exit(typeErrors + lintErrors > 0 ? 1 : 0);

function workspaceProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        reportDiagnostics([diagnostic]);
        process.exit(1);
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  return ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

/** tsc's report of the program's diagnostics; returns how many are errors. */
function reportTypeErrors(program: ts.Program): number {
  const diagnostics = ts.getPreEmitDiagnostics(program);
  reportDiagnostics(diagnostics);
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error).length;
  if (errors > 0) console.error(`\ntsc: ${errors} ${errors === 1 ? 'error' : 'errors'} (npx tsc -p tsconfig.json --noEmit)`);
  return errors;
}

function reportDiagnostics(diagnostics: readonly ts.Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (file) => file, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.error(format(diagnostics, host));
}

/** ESLint over the workspace, its type-checked rules over `program`; resolves to how many errors it found. */
async function lint(program: ts.Program): Promise<number> {
  // @nx/enforce-module-boundaries keeps Nx's project graph from one file to the next only in a run from
  // a terminal, which it tells by the running script's path (`isTerminalRun`: ESLint's, Nx's or jest's);
  // elsewhere, as in an editor, it reads the graph again for every file (6 s of CPU here). This is such a run.
  process.argv[1] = fileURLToPath(new URL('../../node_modules/.bin/eslint', import.meta.url));
  const eslint = new ESLint({
    cwd: root,
    ...ESLINT_CACHE,
    // After eslint.config.mjs: every TypeScript file's types from this program (which holds every one),
    // rather than from a program of ESLint's own. The project service, when set, would win over it.
    overrideConfig: { files: ['**/*.ts'], languageOptions: { parserOptions: { programs: cacheable([program]), projectService: false, project: false } } },
  });
  const results = await eslint.lintFiles(['.']);
  const output = await (await eslint.loadFormatter('stylish')).format(results);
  if (output) console.log(output);
  return results.reduce((sum, result) => sum + result.errorCount, 0);
}

/**
 * ESLint's cache keys each result on the file's config, serialized, and a program does not serialize:
 * it stands for the root tsconfig.json, as `project` did.
 */
function cacheable(programs: ts.Program[]): ts.Program[] {
  return Object.assign(programs, { toJSON: () => ({ project: 'tsconfig.json' }) });
}
