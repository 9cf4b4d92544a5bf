/**
 * Arguments in one short line for a row or a record: `{"owner":"me","title":"Fix…"}`.
 * The whole JSON is one click away wherever this is shown.
 */

/** A row's summary stays readable at a glance; the rest is cut with an ellipsis. */
export const COMPACT_JSON_MAX_CHARS = 80;

export function compactJson(value: unknown, maxChars = COMPACT_JSON_MAX_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return cut(text, maxChars);
}

/** The same for JSON already written out (an MCP card's arguments); text that is not JSON is cut as it is. */
export function compactJsonText(json: string, maxChars = COMPACT_JSON_MAX_CHARS): string {
  try {
    return compactJson(JSON.parse(json) as unknown, maxChars);
  } catch {
    return cut(json, maxChars);
  }
}

function cut(text: string, maxChars: number): string {
  const chars = Array.from(text);
  return chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join('')}…` : text;
}
