import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

// Dependencies, build output and local data: nothing there is the project's own Markdown.
const SKIPPED_FOLDERS = new Set([
  '.git',
  'node_modules',
  'dist',
  'data',
  'coverage',
  '.tmp',
  'test-results',
  'screenshots',
  'release',
]);

// The website renders these pages; their root-relative links are site routes, not files.
const SITE_CONTENT_FOLDER = path.join(ROOT, 'renderer', 'content');

type BrokenLink = { file: string; line: number; target: string; problem: string };

function listMarkdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const fullPath = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      return SKIPPED_FOLDERS.has(entry.name) ? [] : listMarkdownFiles(fullPath);
    }
    return entry.isFile() && entry.name.endsWith('.md') ? [fullPath] : [];
  });
}

/** Blanks fenced blocks and inline code (keeping line breaks), where brackets are not links. */
function blankCode(text: string): string {
  let isInFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        isInFence = !isInFence;
        return '';
      }
      return isInFence ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slugifyHeading(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function collectHeadingSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  let isInFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) isInFence = !isInFence;
    const heading = isInFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const slug = slugifyHeading(heading[1]);
    let unique = slug;
    for (let count = 1; slugs.has(unique); count += 1) unique = `${slug}-${count}`;
    slugs.add(unique);
  }
  return slugs;
}

function readHeadingSlugs(file: string, text?: string): Set<string> {
  return collectHeadingSlugs(text ?? readFileSync(file, 'utf8'));
}

/** Why a link target does not resolve inside the repository, or null when it does. */
function checkTarget(file: string, text: string, target: string): string | null {
  // Other schemes (https:, mailto:) and protocol-relative URLs leave the repository.
  if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')) return null;
  const hashIndex = target.indexOf('#');
  const pathPart = decodeURIComponent(hashIndex === -1 ? target : target.slice(0, hashIndex));
  const fragment = hashIndex === -1 ? '' : decodeURIComponent(target.slice(hashIndex + 1));
  if (pathPart.startsWith('/') && file.startsWith(SITE_CONTENT_FOLDER + path.sep)) return null;
  const resolved =
    pathPart === ''
      ? file
      : pathPart.startsWith('/')
        ? path.join(ROOT, pathPart)
        : path.resolve(path.dirname(file), pathPart);
  const fromRoot = path.relative(ROOT, resolved);
  if (fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) {
    return 'points outside the repository';
  }
  if (resolved !== file && !existsSync(resolved)) return 'no such file';
  if (fragment === '' || !resolved.endsWith('.md')) return null;
  const slugs = readHeadingSlugs(resolved, resolved === file ? text : undefined);
  return slugs.has(fragment.toLowerCase()) ? null : `no heading #${fragment}`;
}

/** Every inline link or image of a Markdown text whose target does not resolve. */
function findBrokenLinks(file: string, text: string): BrokenLink[] {
  const searchable = blankCode(text);
  const linkPattern = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  const broken: BrokenLink[] = [];
  for (const match of searchable.matchAll(linkPattern)) {
    const target = match[1];
    const problem = checkTarget(file, text, target);
    if (problem !== null) {
      const line = searchable.slice(0, match.index).split('\n').length;
      broken.push({ file: path.relative(ROOT, file), line, target, problem });
    }
  }
  return broken;
}

describe('Markdown links', () => {
  it('reports links to a missing file, a missing heading and a place outside the repository', () => {
    const file = path.join(ROOT, 'docs', 'link-check-example.md');
    const text = [
      '# Example title',
      '',
      'Fine: [self](#example-title), [package](../package.json), [site](https://example.com),',
      '[mail](mailto:support@example.com) and `[in code](nowhere.md)`.',
      '',
      '```',
      '[in a fence](nowhere.md)',
      '```',
      '',
      'Broken: [gone](missing-file.md), [anchor](#no-such-heading) and',
      '[outside](../../outside-the-repository.md).',
    ].join('\n');

    expect(findBrokenLinks(file, text)).toEqual([
      {
        file: path.join('docs', 'link-check-example.md'),
        line: 10,
        target: 'missing-file.md',
        problem: 'no such file',
      },
      {
        file: path.join('docs', 'link-check-example.md'),
        line: 10,
        target: '#no-such-heading',
        problem: 'no heading #no-such-heading',
      },
      {
        file: path.join('docs', 'link-check-example.md'),
        line: 11,
        target: '../../outside-the-repository.md',
        problem: 'points outside the repository',
      },
    ]);
  });

  it('slugs headings as GitHub does, numbering repeats', () => {
    const slugs = collectHeadingSlugs(
      [
        "## From Apple's answer to a notification",
        '## 2. Screens and routes',
        '### `shelfwatch worker`',
        '## Notes',
        '## Notes',
      ].join('\n'),
    );

    expect([...slugs]).toEqual([
      'from-apples-answer-to-a-notification',
      '2-screens-and-routes',
      'shelfwatch-worker',
      'notes',
      'notes-1',
    ]);
  });

  it('resolves every relative link of every Markdown file in the repository', () => {
    const files = listMarkdownFiles(ROOT);
    expect(files.map((file) => path.relative(ROOT, file))).toEqual(
      expect.arrayContaining(['README.md', path.join('docs', 'architecture.md')]),
    );

    const broken = files.flatMap((file) => findBrokenLinks(file, readFileSync(file, 'utf8')));

    expect(broken).toEqual([]);
  });
});
