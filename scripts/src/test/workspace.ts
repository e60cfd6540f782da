import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A project of the workspace: its folder from the repository's root and its package.json's scripts. */
export interface Project {
  folder: string;
  scripts: Record<string, string>;
}

interface PackageJson {
  workspaces?: string[];
  scripts?: Record<string, string>;
}

const readPackage = (folder: string): PackageJson => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageJson;

/** Every project the root package.json's `workspaces` name (`libs/*`, `e2e`), in that order. */
export function workspaceProjects(root: string): Project[] {
  return (readPackage(root).workspaces ?? [])
    .flatMap((pattern) => (pattern.endsWith('/*') ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`) : [pattern]))
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .map((folder) => ({ folder, scripts: readPackage(join(root, folder)).scripts ?? {} }));
}

/**
 * What `npm run <script>` would start in `project`: the script's line through `sh`, in the project's
 * folder, with the workspace's executables first on PATH, but without npm's own start around it.
 */
export function scriptCommand(root: string, project: Project, script: string, env: NodeJS.ProcessEnv): { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string } {
  const line = project.scripts[script];
  if (line === undefined) throw new Error(`${project.folder} has no script ${script}`);
  const bins = [join(root, project.folder, 'node_modules', '.bin'), join(root, 'node_modules', '.bin')];
  return { command: 'sh', args: ['-c', line], env: { ...env, PATH: [...bins, env['PATH'] ?? ''].join(delimiter) }, cwd: join(root, project.folder) };
}

/**
 * Runs `work` on each item, `concurrency` at a time, in the order given; resolves to 0 or the first
 * failing exit code, once every item has run.
 */
export async function inQueues<T>(items: T[], concurrency: number, work: (item: T) => Promise<number | null>): Promise<number | null> {
  const queue = [...items];
  let failure: number | null = 0;
  const next = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const code = await work(item);
      if (code !== 0 && failure === 0) failure = code;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, next));
  return failure;
}
