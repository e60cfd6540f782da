import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { root } from './support/deployment.js';

/**
 * `npm test` typechecks and lints the workspace as one program, the root tsconfig.json, instead of
 * one per project (scripts/src/test.ts, eslint.config.mjs): that program must hold every file a
 * project's own tsconfig.json holds, under the same compiler options, or a project's type error
 * would pass `npm test`.
 */
interface Program {
  files: Set<string>;
  options: ts.CompilerOptions;
}

function program(configPath: string): Program {
  const { config } = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path)) as { config: unknown };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, join(configPath, '..'), undefined, configPath);
  expect(parsed.errors).toEqual([]);
  return { files: new Set(parsed.fileNames.map((file) => relative(root, file))), options: parsed.options };
}

/** Every project with a `typecheck` target, which runs `tsc -p tsconfig.json` in the project. */
const projectConfigs = ['libs', 'services']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name)))
  .concat(['e2e', 'scripts', 'bench'])
  .filter((project) => (JSON.parse(readFileSync(join(root, project, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['typecheck'])
  .map((project) => join(root, project, 'tsconfig.json'));
const workspace = program(join(root, 'tsconfig.json'));
const comparable = ({ configFilePath: _path, ...options }: ts.CompilerOptions) => options;

describe('the root tsconfig.json, which npm test typechecks', () => {
  it.each(projectConfigs.map((path) => [relative(root, path), path]))('holds every file of %s under the same options', (_name, path) => {
    const project = program(path);
    expect(project.files.size).toBeGreaterThan(0);
    expect([...project.files].filter((file) => !workspace.files.has(file))).toEqual([]);
    expect(comparable(project.options)).toEqual(comparable(workspace.options));
  });
});
