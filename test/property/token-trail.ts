/**
 * Where each world token has lived. A content token (`t<n>x`) is located at every file
 * that ever held it; a name token (`n<n>q`) at every folder that ever listed it. The
 * trail only grows, so a token is traced to any place it has been (which can only make
 * the read check more lenient, never raise a false alarm).
 */
import path from 'node:path';
import type { Tree } from './tree.js';

// Bounded by non-alphanumerics, so a random temp folder name cannot pass for a token.
const CONTENT = /(?<![A-Za-z0-9])t\d+x(?![A-Za-z0-9])/g;
const NAME = /(?<![A-Za-z0-9])n\d+q(?![A-Za-z0-9])/g;

export interface TokenSighting {
  token: string;
  /** Files (content tokens) or folders (name tokens) it has been seen in. */
  places: ReadonlySet<string>;
  kind: 'content' | 'name';
}

export class TokenTrail {
  private readonly content = new Map<string, Set<string>>();
  private readonly names = new Map<string, Set<string>>();

  record(tree: Tree): void {
    for (const [abs, entry] of tree) {
      for (const t of path.basename(abs).match(NAME) ?? []) placesOf(this.names, t).add(path.dirname(abs));
      if (entry.type !== 'file') continue;
      for (const t of entry.bytes.toString('utf8').match(CONTENT) ?? []) placesOf(this.content, t).add(abs);
    }
  }

  /** The world tokens in `text`, each with where it has been. Unknown tokens have no places. */
  sightings(text: string): TokenSighting[] {
    const found: TokenSighting[] = [];
    for (const t of new Set(text.match(CONTENT) ?? [])) {
      found.push({ token: t, kind: 'content', places: this.content.get(t) ?? new Set() });
    }
    for (const t of new Set(text.match(NAME) ?? [])) {
      found.push({ token: t, kind: 'name', places: this.names.get(t) ?? new Set() });
    }
    return found;
  }
}

function placesOf(map: Map<string, Set<string>>, token: string): Set<string> {
  let set = map.get(token);
  if (!set) map.set(token, (set = new Set()));
  return set;
}
