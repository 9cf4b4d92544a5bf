/** What a step without a tool row changed (a Stop hook's command): "Hook changed 2 files", and the files. */
import type { TranscriptItem } from '../../../../shared/reducer';
import { filesWord } from './change-words';
import { ChangedFiles } from './ChangedFiles';

type HookChanges = Extract<TranscriptItem, { kind: 'changes' }>;

export function HookChangesRow({ sessionId, item }: { sessionId: string; item: HookChanges }) {
  return (
    <div className="event-row hook-changes-row">
      <p>Hook changed {filesWord(item.changed.length)}</p>
      {item.changed.length > 0 && (
        <ChangedFiles sessionId={sessionId} turnId={item.turnId} toolCallId={item.toolCallId} changed={item.changed} />
      )}
    </div>
  );
}
