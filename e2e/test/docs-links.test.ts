import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** README.md and every markdown file under docs/. */
function documents(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : [];
    });
  return [join(root, 'README.md'), ...walk(join(root, 'docs'))];
}

/** The markdown outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const text = readFileSync(path, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(heading as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every inline link target of a document, with the line it is on. */
function links(path: string): { target: string; line: number }[] {
  const text = prose(readFileSync(path, 'utf8'));
  const found: { target: string; line: number }[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    found.push({ target: match[1] as string, line: text.slice(0, match.index).split('\n').length });
  }
  return found;
}

describe('documentation links', () => {
  const files = documents();

  it('finds the README and the docs tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('every relative link of README.md and docs/**/*.md names a file that exists, and every #anchor a heading of it', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { target, line } of links(file)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: (no network)
        const [pathPart = '', anchor] = target.split('#');
        const linked = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
        const where = `${relative(root, file)}:${line} -> ${target}`;
        if (!linked.startsWith(root) || !existsSync(linked)) {
          broken.push(`${where} (no such file inside the repository)`);
          continue;
        }
        if (anchor !== undefined && anchor !== '' && linked.endsWith('.md') && !anchors(linked).has(anchor)) {
          broken.push(`${where} (no heading with that anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('computes anchors the way GitHub does', () => {
    expect(slug('Security limits (contract §4, §9)')).toBe('security-limits-contract-4-9');
    expect(slug('`npm run fuzz -- [--requests N] [--seed S]`')).toBe('npm-run-fuzz------requests-n---seed-s');
  });

  it('links the spec and the contract inside the repository, as copies of the shared files', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/spec/service-spec.md)');
    expect(readme).toContain('](docs/spec/contract.md)');
    expect(readme).not.toContain('../shared/');
  });
});
