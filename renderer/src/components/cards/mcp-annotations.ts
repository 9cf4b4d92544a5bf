/**
 * An MCP tool's annotations in words, as the server's claims (SPEC §10: shown, never
 * trusted to skip a card). The hints MCP defines read as plain words; anything else is
 * shown as its key and value, cut short.
 */

/** Longer values are cut: an annotation is a claim at a glance, not a place for prose. */
const VALUE_MAX_CHARS = 80;

const HINTS: Record<string, { yes: string; no: string }> = {
  readOnlyHint: { yes: 'read-only', no: 'may change things' },
  destructiveHint: { yes: 'destructive', no: 'not destructive' },
  idempotentHint: { yes: 'idempotent', no: 'not idempotent' },
  openWorldHint: { yes: 'reaches outside systems', no: 'closed world' },
};

/** One chip's words per annotation, in the server's order: "read-only", "title: Create issue". */
export function annotationWords(annotations: Record<string, unknown> | undefined): string[] {
  if (!annotations) return [];
  return Object.entries(annotations).map(([key, value]) => {
    const hint = HINTS[key];
    if (hint && typeof value === 'boolean') return value ? hint.yes : hint.no;
    return `${key}: ${cut(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)))}`;
  });
}

function cut(text: string): string {
  const chars = Array.from(text);
  return chars.length > VALUE_MAX_CHARS ? `${chars.slice(0, VALUE_MAX_CHARS - 1).join('')}…` : text;
}
