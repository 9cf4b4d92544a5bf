/**
 * Where Anthropic prompt-cache breakpoints go: a pure function of the message list.
 *
 * The API allows 4 breakpoints, writes the prefix ending at each, and on a later request
 * finds a cached prefix only at a breakpoint or up to about 20 content blocks before one.
 * One breakpoint always ends the system prompt (the tools come before it, so it covers
 * them too). The messages get at most three, in this order of worth:
 *   1. the last message, so the next step can read all of this one;
 *   2. where the previous request ended (just before the latest assistant message), so
 *      this step reads what the previous one wrote, however many blocks a step adds;
 *   3. the end of the frozen head (the summary and the masked results), which stays put
 *      between masking blocks, so a new block of masking re-reads the head from the cache.
 */
export const MAX_BREAKPOINTS = 4;
/** The system prompt's own breakpoint. */
const SYSTEM_BREAKPOINTS = 1;

/**
 * @param roles the messages' roles, in order
 * @param frozenEnd index of the last message of the frozen head, or -1 when there is none
 * @returns message indices that end a breakpoint, ascending, at most MAX_BREAKPOINTS - 1
 */
export function messageBreakpoints(roles: readonly string[], frozenEnd: number): number[] {
  const last = roles.length - 1;
  if (last < 0) return [];
  const previousEnd = roles.lastIndexOf('assistant') - 1;
  const wanted = [last, previousEnd, frozenEnd].filter((i) => i >= 0 && i <= last);
  const unique = [...new Set(wanted)].slice(0, MAX_BREAKPOINTS - SYSTEM_BREAKPOINTS);
  return unique.sort((a, b) => a - b);
}
