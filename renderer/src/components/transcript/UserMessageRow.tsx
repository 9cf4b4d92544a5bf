/** A message the person sent, with its Rewind action (none once it was rewound: it is out of the conversation). */
import type { TranscriptItem } from '../../../../shared/reducer';
import { RewindButton } from '../changes/RewindButton';
import { MessageRow } from './MessageRow';

type UserItem = Extract<TranscriptItem, { kind: 'user' }>;

export function UserMessageRow({ item, running, rewound }: { item: UserItem; running: boolean; rewound: boolean }) {
  return (
    <div className="user-message-row">
      <MessageRow role="user" text={item.text} />
      {!rewound && <RewindButton seq={item.seq} running={running} />}
    </div>
  );
}
