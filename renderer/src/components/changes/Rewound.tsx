/**
 * A transcript row a rewind took out of the conversation: greyed but still readable (the log
 * is append-only), and the first row of the range says what that means.
 */
import type { ReactNode } from 'react';
import './changes.css';

export type RewoundMark = 'first' | 'inside';

export function Rewound({ mark, children }: { mark: RewoundMark; children: ReactNode }) {
  return (
    <div className="rewound">
      {mark === 'first' && <p className="rewound-note">Rewound — the model no longer sees this</p>}
      <div className="rewound-content">{children}</div>
    </div>
  );
}

/** Whether the row logged at seq is in a rewound range, and whether it starts one. */
export function rewoundMark(
  ranges: readonly { fromSeq: number; toSeq: number }[],
  seq: number,
): RewoundMark | undefined {
  let mark: RewoundMark | undefined;
  for (const r of ranges) {
    if (seq === r.fromSeq) return 'first';
    if (seq > r.fromSeq && seq <= r.toSeq) mark = 'inside';
  }
  return mark;
}
