/**
 * Model output as markdown (UI.md, Untrusted content): no raw HTML (skipHtml, never
 * rehype-raw), no image ever loads (shown as its URL in words, since an image URL can leak
 * data), and links are followed only for https: and only on a click.
 */
import { memo, type MouseEvent, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';
import { followableUrl, openExternally } from './link-policy';

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

function textOf(node: HastNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

function languageOf(node: HastNode | undefined): string | null {
  const classes = node?.properties?.className;
  const list = Array.isArray(classes) ? (classes as unknown[]) : [];
  const found = list.map(String).find((c) => c.startsWith('language-'));
  return found ? found.slice('language-'.length) : null;
}

function Link({ href, children }: { href?: string; children?: ReactNode }) {
  const url = followableUrl(href);
  if (!url) {
    return (
      <span className="md-link-inert" title="Not a https: link, so it cannot be opened from here">
        {children}
        {href ? ` <${href}>` : ''}
      </span>
    );
  }
  const open = (event: MouseEvent) => {
    event.preventDefault();
    openExternally(url);
  };
  return (
    <a href={url} title={url} rel="noopener noreferrer" target="_blank" onClick={open}>
      {children}
    </a>
  );
}

const COMPONENTS: Components = {
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  img: ({ src, alt }) => (
    <span className="md-image" title="Images are not loaded">
      [image{alt ? `: ${alt}` : ''}: {typeof src === 'string' ? src : ''}]
    </span>
  ),
  pre: ({ node }) => {
    const code = (node as HastNode | undefined)?.children?.find((c) => c.tagName === 'code');
    return <CodeBlock code={textOf(code).replace(/\n$/, '')} language={languageOf(code)} />;
  },
};

/** The URL as written: the components above decide what is safe, not a silent rewrite. */
const keepUrl = (url: string) => url;

/** Markdown without its wrapper, so a streamed message can be parsed in blocks (StreamingMarkdown). */
export const MarkdownPart = memo(function MarkdownPart({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={PLUGINS} skipHtml urlTransform={keepUrl} components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
});

const PLUGINS = [remarkGfm];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <MarkdownPart text={text} />
    </div>
  );
});
