// Lets plain Node import the workspace's TypeScript sources as jest's sandbox does (jest.preset.js's
// moduleNameMapper and transform): `@school/<lib>` from libs/<lib>/src, `./x.js` as `./x.ts`,
// compiled by SWC. Jest loads its global setup natively, outside the sandbox; this is for it.
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from '@swc/core';
import { swcOptions } from './swc-options.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let registered = false;

/** Whether workspace TypeScript can be imported: Node 22.15 or newer (module.registerHooks). */
export function registerTypeScriptHooks() {
  if (registered) return true;
  if (typeof registerHooks !== 'function') return false;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const library = /^@school\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier);
      if (library) {
        const entry = join(root, 'libs', library[1], 'src', library[2] ?? '', 'index.ts');
        return { url: pathToFileURL(entry).href, shortCircuit: true };
      }
      if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
        const source = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
        if (existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return nextLoad(url, context);
      const filename = fileURLToPath(url);
      const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcOptions, filename, sourceMaps: 'inline' });
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
  registered = true;
  return true;
}
