/** "Cmd" on a Mac, "Ctrl" elsewhere, for the words that name a shortcut. */
export function modKeyName(): string {
  return /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '') ? 'Cmd' : 'Ctrl';
}
