import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { inQueues, scriptCommand, workspaceProjects } from '../../scripts/src/test/workspace.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What `npm test` builds and which lanes it finds (scripts/src/test/workspace.ts). */
describe("npm test's view of the workspace", () => {
  it('lists every project the root package.json names, with its scripts', () => {
    const projects = workspaceProjects(root);
    const folders = projects.map((project) => project.folder);
    expect(folders).toEqual(expect.arrayContaining(['libs/config', 'services/identity', 'services/gateway', 'e2e', 'scripts', 'bench']));
    expect(folders.some((folder) => folder.includes('node_modules'))).toBe(false);
    const identity = projects.find((project) => project.folder === 'services/identity');
    expect(identity?.scripts).toMatchObject({ build: expect.any(String), 'prisma:generate': expect.any(String), 'test:int': expect.any(String) });
  });

  describe('a script started as npm starts it', () => {
    let fixture: string;

    beforeAll(async () => {
      fixture = await mkdtemp(join(tmpdir(), 'workspace-'));
      await writeFile(join(fixture, 'package.json'), JSON.stringify({ workspaces: ['pkgs/*', 'tool'] }));
      await mkdir(join(fixture, 'pkgs', 'a'), { recursive: true });
      await mkdir(join(fixture, 'pkgs', 'not-a-project'), { recursive: true });
      await writeFile(join(fixture, 'pkgs', 'a', 'package.json'), JSON.stringify({ scripts: { build: 'pwd && greet "$WHO"' } }));
      await mkdir(join(fixture, 'tool'));
      await writeFile(join(fixture, 'tool', 'package.json'), JSON.stringify({}));
      await mkdir(join(fixture, 'node_modules', '.bin'), { recursive: true });
      await writeFile(join(fixture, 'node_modules', '.bin', 'greet'), '#!/bin/sh\necho "hello $1"\n');
      await chmod(join(fixture, 'node_modules', '.bin', 'greet'), 0o755);
    });

    afterAll(() => rm(fixture, { recursive: true, force: true }));

    it('runs in the project folder, with the workspace executables on PATH and the caller environment', () => {
      const projects = workspaceProjects(fixture);
      expect(projects).toEqual([
        { folder: 'pkgs/a', scripts: { build: 'pwd && greet "$WHO"' } },
        { folder: 'tool', scripts: {} },
      ]);
      const { command, args, env, cwd } = scriptCommand(fixture, projects[0]!, 'build', { ...process.env, WHO: 'workspace' });
      const result = spawnSync(command, args, { env, cwd, encoding: 'utf8' });
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`${join(fixture, 'pkgs', 'a')}\nhello workspace\n`);
    });

    it('refuses a script the project does not have', () => {
      const [, tool] = workspaceProjects(fixture);
      expect(() => scriptCommand(fixture, tool!, 'build', process.env)).toThrow('tool has no script build');
    });
  });

  describe('inQueues', () => {
    it('runs every item in order, never more than `concurrency` at once, and resolves to the first failure', async () => {
      let running = 0;
      let most = 0;
      const started: number[] = [];
      const code = await inQueues([1, 2, 3, 4, 5], 2, async (item) => {
        started.push(item);
        running += 1;
        most = Math.max(most, running);
        await sleep(item === 1 ? 30 : 5);
        running -= 1;
        return item === 2 ? 3 : item === 4 ? 7 : 0;
      });
      expect(started).toEqual([1, 2, 3, 4, 5]);
      expect(most).toBe(2);
      expect(code).toBe(3);
    });

    it('resolves to 0 when every item passes, and when there are none', async () => {
      expect(await inQueues([1, 2], 3, () => Promise.resolve(0))).toBe(0);
      expect(await inQueues([], 2, () => Promise.resolve(1))).toBe(0);
    });
  });
});
