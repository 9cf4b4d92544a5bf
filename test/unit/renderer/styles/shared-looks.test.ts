/**
 * A shared look is one class in styles/boxes.css (UI.md, Renderer layout), never a copy in
 * a component's stylesheet: copies drift (the screen-reader-only rule had three, two of
 * them clipping with the deprecated `clip`).
 */
// This test reads the stylesheets themselves, from disk: Vite hands a test CSS as an empty
// module. The renderer's code still imports no Node.
// eslint-disable-next-line no-restricted-imports
import { readdirSync, readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '../../../../renderer/src');

interface Rule {
  file: string;
  selector: string;
  declarations: string[];
}

function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** Every rule's selector and its declarations, sorted (inner rules of @media are rules too). */
function rules(): Rule[] {
  return stylesheets(SRC).flatMap((path) => {
    const css = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    return [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({
      file: relative(SRC, path),
      selector: m[1]!.trim(),
      declarations: m[2]!
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)
        .sort(),
    }));
  });
}

describe("the renderer's shared looks", () => {
  it('are not copied: no two rules declare the same five or more things', () => {
    const byLook = new Map<string, string[]>();
    for (const rule of rules()) {
      if (rule.declarations.length < 5) continue;
      const key = rule.declarations.join('; ');
      byLook.set(key, [...(byLook.get(key) ?? []), `${rule.file} ${rule.selector}`]);
    }
    const twins = [...byLook.values()].filter((places) => places.length > 1);
    expect(twins).toEqual([]);
  });

  it.each(['.visually-hidden', '.chip-list', '.diff-count-added', '.diff-count-deleted', '.warning-mark'])(
    '%s is defined once, in styles/boxes.css',
    (selector) => {
      const places = rules()
        .filter((r) => r.selector === selector)
        .map((r) => r.file);
      expect(places).toEqual(['styles/boxes.css']);
    },
  );

  it('hides text from the eye alone one way: no other rule clips', () => {
    const clipping = rules()
      .filter((r) => r.declarations.some((d) => /^clip(-path)?:/.test(d)))
      .map((r) => `${r.file} ${r.selector}`);
    expect(clipping).toEqual(['styles/boxes.css .visually-hidden']);
  });
});
