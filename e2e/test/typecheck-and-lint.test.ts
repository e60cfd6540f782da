import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts/dist/typecheck-and-lint.js');
const typescriptEslint = pathToFileURL(createRequire(join(root, 'package.json')).resolve('typescript-eslint')).href;

/** A workspace of one file, with typescript-eslint's type-checked rules; resolves to the script's exit code and output. */
function check(source: string): Promise<{ code: number | null; output: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'typecheck-and-lint-'));
  folders.push(folder);
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['*.ts'] }));
  writeFileSync(
    join(folder, 'eslint.config.mjs'),
    `import tseslint from '${typescriptEslint}';
export default tseslint.config({ files: ['**/*.ts'], extends: [tseslint.configs.recommendedTypeChecked], languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } });
`,
  );
  writeFileSync(join(folder, 'probe.ts'), source);
  return new Promise((resolve) => {
    execFile(process.execPath, [script, folder], (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }));
  });
}
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// That it passes a clean workspace, npm test's own run of it shows (the whole workspace is one).
describe("npm test's typecheck and lint over one program (scripts/src/typecheck-and-lint.ts)", () => {
  it('fails on a type error and on a type-checked rule, reporting both', async () => {
    const { code, output } = await check("export const count: number = 'three';\nconst later = (): Promise<void> => Promise.resolve();\nlater();\n");
    expect(output).toMatch(/probe\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(output).toMatch(/3:1 +error +Promises must be awaited.*@typescript-eslint\/no-floating-promises/);
    expect(code).toBe(1);
  });
});
