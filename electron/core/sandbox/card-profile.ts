/**
 * The profile a card showed, back as the profile the run is held to: the card is what the
 * person allowed, so the run gets exactly that, never a profile computed afresh.
 */
import type { CommandSandbox } from '../../../shared/cards.js';
import type { SandboxProfile } from './sandbox.js';

/** Null for a card from before the home folder was emptied: it promised less, so it is asked again. */
export function profileOfCard(sandbox: Extract<CommandSandbox, { confined: true }>): SandboxProfile | null {
  if (sandbox.home === undefined) return null;
  return {
    network: sandbox.network,
    git: sandbox.git === true,
    home: sandbox.home,
    writable: sandbox.writable,
    readOnly: sandbox.readOnly,
    shown: sandbox.shown ?? [],
    hidden: sandbox.hidden,
  };
}
