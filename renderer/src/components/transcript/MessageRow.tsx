/** A user message (the person's own words, as text) or the assistant's markdown. */
import { Markdown } from './Markdown';
import { StreamingMarkdown } from './StreamingMarkdown';

export function MessageRow({
  role,
  text,
  streaming = false,
}: {
  role: 'user' | 'assistant';
  text: string;
  streaming?: boolean;
}) {
  if (role === 'user') {
    return (
      <div className="message message-user">
        <p className="message-text">{text}</p>
      </div>
    );
  }
  return (
    <div className={`message message-assistant${streaming ? ' message-streaming' : ''}`} aria-busy={streaming}>
      {streaming ? <StreamingMarkdown text={text} /> : <Markdown text={text} />}
    </div>
  );
}
