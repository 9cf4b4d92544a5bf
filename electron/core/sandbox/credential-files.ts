/**
 * Credential files that tools keep inside their own install folders, so inside a shown
 * place (SPEC §9): npm's global config at `<prefix>/etc/npmrc` (nvm's Node versions keep
 * one each), pip's site config at `<venv>/pip.conf`, conda's at `<prefix>/.condarc`. They
 * are hidden by name wherever a shown place holds one.
 *
 * bubblewrap hides concrete paths only, so the profile finds them with a bounded search
 * (`findCredentialFiles`): at most SEARCH_DEPTH folders below each shown place, never into
 * package content (NOT_SEARCHED), at most SEARCH_FOLDERS folders read per command, links
 * not followed (a link's target is hidden or shown where it lies). Past the bound nothing
 * more is found; the shown places are read-only to commands, so only the person can put a
 * file there, and the search reaches every place the tools above write theirs.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface CredentialFile {
  /** The file's name, or its last folders and name ("etc/npmrc"). */
  name: string;
  /** Which tool keeps a secret there. */
  why: string;
}

export const CREDENTIAL_FILES: readonly CredentialFile[] = [
  { name: 'etc/npmrc', why: "npm's global config in a Node prefix (nvm, volta, asdf): registry tokens" },
  { name: 'pip.conf', why: "pip's config in a virtual environment or Python prefix: index passwords" },
  { name: '.condarc', why: "conda's config in an install or environment: channel tokens" },
  { name: 'condarc', why: "conda's config without the dot, in an install" },
  { name: '.npmrc', why: 'npm registry tokens' },
  { name: '.yarnrc.yml', why: 'yarn 2+ npmAuthToken' },
  { name: '.pypirc', why: 'PyPI upload tokens' },
  { name: '.netrc', why: 'logins for curl, git and pip' },
  { name: '.git-credentials', why: "git's credential store" },
];

/** How deep below a shown place the search looks: `.volta/tools/image/node/<v>/etc/npmrc` is at depth 6. */
export const SEARCH_DEPTH = 6;

/** How many folders the search reads for one command, across all shown places. */
export const SEARCH_FOLDERS = 4000;

/** Package content and documentation: the tools above never write the person's config in there. */
const NOT_SEARCHED: ReadonlySet<string> = new Set([
  'node_modules',
  'site-packages',
  'dist-packages',
  '__pycache__',
  '.git',
  'lib',
  'lib64',
  'include',
  'share',
  'man',
  'doc',
  'src',
]);

/** The credential files inside these places, as real paths (a breadth-first walk within the bound). */
export async function findCredentialFiles(places: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  let budget = SEARCH_FOLDERS;
  let level = places.map((p) => ({ dir: p, depth: 1 }));
  while (level.length > 0 && budget > 0) {
    const next: typeof level = [];
    for (const { dir, depth } of level) {
      if (budget-- <= 0) break;
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (isCredentialFile(full)) found.push(full);
        if (entry.isDirectory() && depth < SEARCH_DEPTH && !NOT_SEARCHED.has(entry.name)) {
          next.push({ dir: full, depth: depth + 1 });
        }
      }
    }
    level = next;
  }
  return found;
}

function isCredentialFile(p: string): boolean {
  return CREDENTIAL_FILES.some(({ name }) => p === name || p.endsWith(`/${name}`));
}
