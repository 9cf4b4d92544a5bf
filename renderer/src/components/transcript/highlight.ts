/**
 * Syntax highlighting for code blocks, loaded on the first code block only (highlight.js is
 * large). It yields hljs's token tree, not its HTML: CodeBlock renders the tree as React
 * text nodes, so code from the model never passes through innerHTML.
 */
import type { HLJSApi } from 'highlight.js';

export type Token = string | { scope?: string; children: Token[] };

let loading: Promise<HLJSApi> | null = null;

async function load(): Promise<HLJSApi> {
  const [core, ...languages] = await Promise.all([
    import('highlight.js/lib/core'),
    import('highlight.js/lib/languages/typescript'),
    import('highlight.js/lib/languages/javascript'),
    import('highlight.js/lib/languages/json'),
    import('highlight.js/lib/languages/bash'),
    import('highlight.js/lib/languages/python'),
    import('highlight.js/lib/languages/diff'),
    import('highlight.js/lib/languages/css'),
    import('highlight.js/lib/languages/xml'),
    import('highlight.js/lib/languages/yaml'),
    import('highlight.js/lib/languages/go'),
    import('highlight.js/lib/languages/rust'),
  ]);
  const hljs = core.default;
  const names = ['typescript', 'javascript', 'json', 'bash', 'python', 'diff', 'css', 'xml', 'yaml', 'go', 'rust'];
  names.forEach((name, i) => hljs.registerLanguage(name, (languages[i] as { default: never }).default));
  return hljs;
}

export function loadHighlighter(): Promise<HLJSApi> {
  loading ??= load();
  return loading;
}

/** The token tree of `code` in `language`, or null for a language not loaded. */
export function highlightTokens(hljs: HLJSApi, code: string, language: string): Token[] | null {
  if (!hljs.getLanguage(language)) return null;
  const result = hljs.highlight(code, { language, ignoreIllegals: true });
  // hljs builds this tree (its TokenTreeEmitter) before turning it into HTML; reading the
  // tree is what lets us skip the HTML entirely.
  const root = (result._emitter as unknown as { root?: { children: Token[] } }).root;
  return root ? root.children : null;
}

/** "title.function" → "hljs-title function_", as hljs's own HTML would name it. */
export function scopeClass(scope: string): string {
  const [first, ...rest] = scope.split('.');
  return [`hljs-${first}`, ...rest.map((part, i) => `${part}${'_'.repeat(i + 1)}`)].join(' ');
}
