/**
 * A fenced code block: plain text at once, then highlighted when hljs has loaded. Tokens
 * become React elements with text children; nothing is parsed as HTML.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { highlightTokens, loadHighlighter, scopeClass, type Token } from './highlight';

/** Past this, highlighting costs more than it helps, and the text stays plain. */
const HIGHLIGHT_MAX_CHARS = 100_000;

export function CodeBlock({ code, language }: { code: string; language: string | null }) {
  const [tokens, setTokens] = useState<Token[] | null>(null);
  useEffect(() => {
    setTokens(null);
    if (!language || code.length > HIGHLIGHT_MAX_CHARS) return;
    let live = true;
    loadHighlighter()
      .then((hljs) => {
        if (live) setTokens(highlightTokens(hljs, code, language));
      })
      .catch(() => {
        // Highlighting is decoration: the plain text is already on screen.
      });
    return () => {
      live = false;
    };
  }, [code, language]);
  return (
    <pre className="md-code" data-language={language ?? undefined}>
      <code className="hljs">{tokens ? renderTokens(tokens) : code}</code>
    </pre>
  );
}

function renderTokens(tokens: Token[]): ReactNode[] {
  return tokens.map((token, i) =>
    typeof token === 'string' ? (
      token
    ) : (
      <span key={i} className={token.scope ? scopeClass(token.scope) : undefined}>
        {renderTokens(token.children)}
      </span>
    ),
  );
}
