/**
 * The provider options that end an Anthropic prompt-cache breakpoint on a message or a
 * system block. Other providers read only their own namespace, so it is inert there.
 */
export const ANTHROPIC_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;
