// ESLint rule `school/no-folder-cycles`: no folder imports a folder above it. Within every folder, its
// children (files and subfolders) are ranked by who imports whom; an import from one child to another
// that imports it back, directly or through its siblings, makes a circle of folders: one of them
// reaches up. The rule reads the imports of the whole tree once per run (as text, like the layout
// tools do), so it sees the import that closes a circle from whichever file makes it.
// Test code (test/, src/testing/, *.spec.ts, the e2e suite) and tool configs sit above all code and
// are not read as importers; what they import is not ranked by them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'generated', 'fixtures', '.git', '.nx']);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const NOT_RANKED = [/(^|\/)test\//, /(^|\/)src\/testing\//, /\.(spec|test)\.ts$/, /^e2e\//, /(^|\/)[^/]+\.config\.(js|mjs|cjs|ts)$/, /\.d\.(ts|mts)$/];
const IMPORTS = /(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** Whether `file` (relative to the root, `/`-separated) is test code or a tool's config, outside the ranking. */
export const notRanked = (file) => NOT_RANKED.some((pattern) => pattern.test(file));

function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name) || (entry.name.startsWith('.') && entry.isDirectory())) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name)) files.push(path);
    }
  };
  walk(root);
  return files;
}

/** The workspace packages by name (`@school/config` -> libs/config), from each package.json one level under a workspace folder or at it. */
function workspacePackages(root) {
  const packages = new Map();
  const read = (dir) => {
    try {
      packages.set(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name, dir);
    } catch {
      // no package here
    }
  };
  for (const top of readdirSync(root, { withFileTypes: true })) {
    if (!top.isDirectory() || SKIPPED_DIRS.has(top.name) || top.name.startsWith('.')) continue;
    read(join(root, top.name));
    for (const inner of readdirSync(join(root, top.name), { withFileTypes: true }))
      if (inner.isDirectory() && !SKIPPED_DIRS.has(inner.name)) read(join(root, top.name, inner.name));
  }
  return packages;
}

function resolveFile(path) {
  const candidates = [path, path.replace(/\.js$/, '.ts'), path.replace(/\.mjs$/, '.mts'), `${path}.ts`, `${path}.js`, join(path, 'index.ts'), join(path, 'index.js')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? path;
}

/** What `specifier` written in `file` lands on inside the tree: a file, a package's folder, or undefined (outside). */
export function importTarget(root, packages, file, specifier) {
  if (specifier.startsWith('.')) {
    const target = resolveFile(resolve(dirname(file), specifier));
    return target.startsWith(root + sep) ? target : undefined;
  }
  const name = /^(@[^/]+\/[^/]+|[^/@][^/]*)/.exec(specifier)?.[1];
  return name ? packages.get(name) : undefined;
}

/** The folder both paths sit in and the child of it each goes through; undefined when one holds the other. */
export function meetingPoint(root, from, to) {
  const a = relative(root, from).split(sep);
  const b = relative(root, to).split(sep);
  let depth = 0;
  while (depth < a.length - 1 && depth < b.length && a[depth] === b[depth]) depth++;
  if (depth >= b.length || a[depth] === b[depth]) return undefined;
  return { folder: a.slice(0, depth).join('/') || '.', from: a[depth], to: b[depth] };
}

/** For every folder, its children's imports of each other: folder -> child -> child -> the imports that make the arrow. */
export function folderGraph(root) {
  const packages = workspacePackages(root);
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    if (notRanked(relative(root, file).split(sep).join('/'))) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORTS)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? match[4];
      const target = importTarget(root, packages, file, specifier);
      const meeting = target && meetingPoint(root, file, target);
      if (!meeting) continue;
      const children = graph.get(meeting.folder) ?? new Map();
      graph.set(meeting.folder, children);
      const arrows = children.get(meeting.from) ?? new Map();
      children.set(meeting.from, arrows);
      arrows.set(meeting.to, [...(arrows.get(meeting.to) ?? []), `${relative(root, file)} -> ${specifier}`]);
    }
  }
  return { graph, packages };
}

/** A way from child `from` to child `to` inside `folder`'s graph, as the children passed, or undefined. */
export function pathBetween(children, from, to) {
  const seen = new Set([from]);
  const queue = [[from]];
  while (queue.length > 0) {
    const path = queue.shift();
    for (const next of children.get(path.at(-1))?.keys() ?? []) {
      if (next === to) return [...path, next];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...path, next]);
      }
    }
  }
  return undefined;
}

/** Every import of the tree that closes a circle of folders, with the way back. */
export function folderCycles(root) {
  const { graph } = folderGraph(root);
  const found = [];
  for (const [folder, children] of graph) {
    for (const [from, arrows] of children) {
      for (const [to, imports] of arrows) {
        const back = pathBetween(children, to, from);
        if (back) found.push({ folder, from, to, back, imports });
      }
    }
  }
  return found;
}

const graphs = new Map();

export const noFolderCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No folder imports a folder above it: the children of every folder import each other in one direction only.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false }],
    messages: {
      cycle:
        'In {{folder}}/, {{from}} imports {{to}}, which imports {{from}} back ({{back}}): a folder imports only folders below it. Move what both need down, or the importer up.',
    },
  },
  create(context) {
    const root = resolve(context.options[0].root);
    const file = context.filename;
    if (!file.startsWith(root + sep) || notRanked(relative(root, file).split(sep).join('/'))) return {};
    if (!graphs.has(root)) graphs.set(root, folderGraph(root));
    const { graph, packages } = graphs.get(root);
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const target = importTarget(root, packages, file, specifier);
      const meeting = target && meetingPoint(root, file, target);
      if (!meeting) return;
      const back = pathBetween(graph.get(meeting.folder) ?? new Map(), meeting.to, meeting.from);
      if (back) context.report({ node: node.source, messageId: 'cycle', data: { folder: meeting.folder, from: meeting.from, to: meeting.to, back: back.join(' -> ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export const plugin = { meta: { name: 'school' }, rules: { 'no-folder-cycles': noFolderCycles } };
