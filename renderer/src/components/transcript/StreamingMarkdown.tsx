/**
 * The message being streamed, as markdown. Re-parsing the whole text every frame costs more
 * the longer it gets, so the text is cut into finished blocks (each a memoized part that
 * renders again only if its own text changes, which streaming never does) and a live tail,
 * the only part parsed again each frame. Same safety rules as Markdown: it is the same parts.
 */
import { MarkdownPart } from './Markdown';
import { splitStreamBlocks } from './stream-blocks';

export function StreamingMarkdown({ text }: { text: string }) {
  const { blocks, tail } = splitStreamBlocks(text);
  return (
    <div className="md">
      {blocks.map((block, i) => (
        <MarkdownPart key={i} text={block} />
      ))}
      {tail && <MarkdownPart text={tail} />}
    </div>
  );
}
