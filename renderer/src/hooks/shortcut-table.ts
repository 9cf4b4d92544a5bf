/**
 * Every keyboard shortcut of the frame, in one table (as VS Code's keybindings): a key maps
 * to a command, and useShortcuts dispatches it. `mod` is Ctrl, or Cmd on a Mac.
 * Cards have their own keys (A/S/D) only while the card has focus; none are global.
 */
export type Command =
  | { name: 'session.new' }
  | { name: 'folder.open' }
  | { name: 'tab.close' }
  | { name: 'tab.goto'; index: number }
  | { name: 'turn.cancel' }
  | { name: 'settings.open' }
  | { name: 'terminal.toggle' }
  | { name: 'context.show' }
  | { name: 'place.review' };

interface Shortcut {
  key: string;
  mod: boolean;
  /** Shift held too; a row without it never matches a press with Shift. */
  shift?: boolean;
  command: Command;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { key: 't', mod: true, command: { name: 'session.new' } },
  { key: 'o', mod: true, command: { name: 'folder.open' } },
  { key: 'w', mod: true, command: { name: 'tab.close' } },
  { key: ',', mod: true, command: { name: 'settings.open' } },
  { key: '`', mod: true, command: { name: 'terminal.toggle' } },
  // M for model, with Shift: Ctrl+M is Enter in the terminal, and Cmd+M minimises on a Mac.
  { key: 'm', mod: true, shift: true, command: { name: 'context.show' } },
  // G as in VS Code's Source Control (Ctrl+Shift+G): the place's changes, to review and apply.
  { key: 'g', mod: true, shift: true, command: { name: 'place.review' } },
  ...Array.from({ length: 9 }, (_, i) => ({
    key: String(i + 1),
    mod: true,
    command: { name: 'tab.goto', index: i } as Command,
  })),
  { key: 'Escape', mod: false, command: { name: 'turn.cancel' } },
];

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function commandFor(event: KeyPress, mac: boolean): Command | null {
  const mod = mac ? event.metaKey : event.ctrlKey;
  const otherMod = mac ? event.ctrlKey : event.metaKey;
  if (event.altKey || otherMod) return null;
  // Shift turns 'm' into 'M': letters compare in lower case, with Shift matched separately.
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return (
    SHORTCUTS.find((s) => s.key === key && s.mod === mod && (s.shift ?? false) === event.shiftKey)?.command ?? null
  );
}
