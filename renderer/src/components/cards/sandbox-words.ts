/**
 * A command card's sandbox in words (UI.md card rule 7), from shared describeSandbox.
 *
 * Paths under the user's home (as settings.get reports it) are shown as ~; before the
 * settings arrive they stay absolute: longer, but never a guess.
 */
import { describeSandbox, type CommandCardBody, type SandboxWords } from '../../../../shared/cards';

export interface CommandSandboxWords extends SandboxWords {
  /** The command runs confined: its line is quiet, not a warning. */
  confined: boolean;
}

export function commandSandboxWords(body: CommandCardBody, home?: string): CommandSandboxWords {
  return { ...describeSandbox(body, home), confined: body.sandbox?.confined === true };
}

/** "Unconfined: why" as its lead word and the rest, so the lead can be bold; the text stays whole. */
export function splitLead(line: string): { lead: string; rest: string } {
  const colon = line.indexOf(': ');
  return colon < 0 ? { lead: '', rest: line } : { lead: line.slice(0, colon + 1), rest: line.slice(colon + 1) };
}
