import { describe, expect, it } from '@jest/globals';
import { Linter } from 'eslint';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderCycles, plugin } from '../../libs/tools/src/eslint/no-folder-cycles.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** A throw-away tree of `files` (path -> text). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'folder-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lint(treeRoot: string, file: string, text: string) {
  const config: Linter.Config[] = [{ files: ['**/*.ts'], plugins: { school: plugin }, rules: { 'school/no-folder-cycles': ['error', { root: treeRoot }] } }];
  return new Linter({ cwd: treeRoot }).verify(text, config, { filename: join(treeRoot, file) });
}

describe('no folder imports a folder above it (school/no-folder-cycles, eslint.config.mjs)', () => {
  it('holds over the whole repository: no two folders import each other, directly or round a circle', () => {
    expect(folderCycles(root).map(({ folder, from, to, imports }) => `${folder}: ${from} -> ${to} (${imports.join('; ')})`)).toEqual([]);
  });

  it('fails the import that closes a circle, from either end, and passes the same imports in one direction', () => {
    const storage = "import { uploads } from '../uploads/uploads.service.js';\nexport const storage = uploads;\n";
    const planted = tree({
      'services/media/src/uploads/uploads.service.ts': "import { read } from '../storage/storage.js';\nexport const uploads = read;\n",
      'services/media/src/storage/storage.ts': 'export const read = 1;\n',
      'services/media/src/storage/urls.ts': storage,
    });
    try {
      const [problem] = lint(planted, 'services/media/src/storage/urls.ts', storage);
      expect(problem?.ruleId).toBe('school/no-folder-cycles');
      expect(problem?.message).toContain('In services/media/src/, storage imports uploads, which imports storage back');
      expect(lint(planted, 'services/media/src/uploads/uploads.service.ts', "import { read } from '../storage/storage.js';\n")).toHaveLength(1);
      expect(
        folderCycles(planted)
          .map(({ from, to }) => `${from} -> ${to}`)
          .sort(),
      ).toEqual(['storage -> uploads', 'uploads -> storage']);
      rmSync(join(planted, 'services/media/src/storage/urls.ts'));
      expect(folderCycles(planted)).toEqual([]);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  it('sees a circle at the root through package names (a lib importing the scripts that import it), and leaves tests out', () => {
    const planted = tree({
      'libs/testing/package.json': '{ "name": "@school/testing" }',
      'libs/testing/src/time-scale.ts': "export { scaled } from '../../../scripts/jest/time-scale.js';\n",
      'libs/testing/test/runner.test.ts': "import '../../../scripts/src/test.js';\n",
      'scripts/package.json': '{ "name": "@school/scripts" }',
      'scripts/jest/time-scale.ts': 'export const scaled = 1;\n',
      'scripts/src/test.ts': "import { scaled } from '@school/testing';\nexport const run = scaled;\n",
    });
    try {
      expect(
        folderCycles(planted)
          .map(({ folder, from, to }) => `${folder}: ${from} -> ${to}`)
          .sort(),
      ).toEqual(['.: libs -> scripts', '.: scripts -> libs']);
      rmSync(join(planted, 'libs/testing/src/time-scale.ts'));
      expect(folderCycles(planted)).toEqual([]); // the test's import of scripts ranks nothing
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });
});
