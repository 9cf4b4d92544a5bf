// Stand-in until components/transcript/Transcript.tsx lands (the cards engineer's); delete then.
import type { TranscriptItem } from '../../../../shared/reducer';
import type { LiveOutput } from '../../store/live-output';

export function Transcript(props: {
  sessionId: string;
  workspace: string;
  items: TranscriptItem[];
  streaming: string | null;
  liveOutput: Record<string, LiveOutput>;
}) {
  return (
    <ol className="transcript-standin">
      {props.items.map((item) => (
        <li key={item.seq}>{'text' in item ? item.text : item.kind}</li>
      ))}
      {props.streaming && <li>{props.streaming}</li>}
    </ol>
  );
}
