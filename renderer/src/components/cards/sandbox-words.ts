/**
 * What an allowed command, or a workspace's MCP server, can reach (UI.md card rule 7), in
 * words from shared describeSandbox.
 *
 * Paths under the user's home (as settings.get reports it) are shown as ~; before the
 * settings arrive they stay absolute: longer, but never a guess.
 */
import {
  describeSandbox,
  type CommandCardBody,
  type McpServerCardBody,
  type SandboxWords,
} from '../../../../shared/cards';

export interface CommandSandboxWords extends SandboxWords {
  /** It runs confined: its line is quiet, not a warning. */
  confined: boolean;
}

/** A card whose process runs under the sandbox: a command, or an MCP server's start (stdio). */
export type SandboxedBody = CommandCardBody | McpServerCardBody;

export function commandSandboxWords(body: CommandCardBody, home?: string): CommandSandboxWords {
  return { ...describeSandbox(body, home), confined: body.sandbox?.confined === true };
}

/**
 * The same for either kind. A server starts confined with the network (SPEC §10), so its
 * line says "with network" itself; it asks for nothing beyond that, so it has no warnings
 * but "Unconfined: why".
 */
export function sandboxWords(body: SandboxedBody, home?: string): CommandSandboxWords {
  if (body.kind === 'command') return commandSandboxWords(body, home);
  if (!body.sandbox) {
    return {
      line: 'Unconfined: the card does not say how this server would run',
      warnings: [],
      shown: [],
      confined: false,
    };
  }
  return { ...describeSandbox({ sandbox: body.sandbox }, home), confined: body.sandbox.confined };
}

/** "Unconfined: why" as its lead word and the rest, so the lead can be bold; the text stays whole. */
export function splitLead(line: string): { lead: string; rest: string } {
  const colon = line.indexOf(': ');
  return colon < 0 ? { lead: '', rest: line } : { lead: line.slice(0, colon + 1), rest: line.slice(colon + 1) };
}
