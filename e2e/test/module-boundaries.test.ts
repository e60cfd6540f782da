import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The workspace's ESLint config, only its project-boundary rule, on a service's file that imports the testing helpers.
const PROBE = `
import { ESLint } from 'eslint';
const eslint = new ESLint({
  ruleFilter: ({ ruleId }) => ruleId === '@nx/enforce-module-boundaries',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});
const [result] = await eslint.lintText("import { scaled } from '@school/testing/time-scale';\\nexport const wait = scaled;\\n", { filePath: 'services/feedback/src/probe.ts' });
console.log(JSON.stringify(result.messages.map(({ ruleId, message }) => ({ ruleId, message }))));
`;

describe('the Nx project boundaries (eslint.config.mjs)', () => {
  it('are enforced where Nx has cached no project graph yet, as on a fresh clone whose builds ran without Nx', async () => {
    const workspaceData = mkdtempSync(join(tmpdir(), 'nx-workspace-data-'));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', PROBE], {
        cwd: root,
        env: { ...process.env, NX_WORKSPACE_DATA_DIRECTORY: workspaceData, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      });
      expect(JSON.parse(stdout)).toEqual([
        { ruleId: '@nx/enforce-module-boundaries', message: 'A project tagged with "type:service" can only depend on libs tagged with "type:platform", "type:contracts"' },
      ]);
      expect(existsSync(join(workspaceData, 'project-graph.json'))).toBe(true);
    } finally {
      rmSync(workspaceData, { recursive: true, force: true });
    }
  });
});
