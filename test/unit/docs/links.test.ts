import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The README is the front door and `docs/` the manual: a renamed heading or a moved file must not leave a link
 * pointing nowhere. Links that leave the repository (the shared spec beside it) and web addresses are not followed.
 */
const ROOT = path.join(__dirname, '..', '..', '..');
const DOCUMENTS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of withoutFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Fenced blocks and code spans hold examples, not links. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

function linksOf(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map(([, target = '']) => target);
}

const read = (document: string) => readFileSync(path.join(ROOT, document), 'utf8');

describe('the documentation', () => {
  it.each(DOCUMENTS)('%s: every link inside the repository reaches a file and, with an anchor, its heading', (document) => {
    const broken: string[] = [];
    for (const target of linksOf(read(document))) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? path.join(ROOT, document) : path.resolve(path.dirname(path.join(ROOT, document)), decodeURI(file));
      if (path.relative(ROOT, resolved).startsWith('..')) continue;
      if (!existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('the README names every document of docs/ and stays a front door (at most 300 lines)', () => {
    const readme = read('README.md');
    const linked = new Set(linksOf(readme).map((target) => target.split('#')[0]));
    expect(DOCUMENTS.filter((document) => document !== 'README.md' && !linked.has(document))).toEqual([]);
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('reads anchors as GitHub writes them', () => {
    expect([...anchorsOf("## Dashboard: the account holder's pages at `/app`\n## Tests\n## Tests\n```\n# not a heading\n```")]).toEqual([
      'dashboard-the-account-holders-pages-at-app',
      'tests',
      'tests-1',
    ]);
  });
});
