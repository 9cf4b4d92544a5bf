/**
 * Pinning folded from the log (SPEC §10): an answered card pins what the person allowed of a
 * tool or a server's start; a server's new tool list names the tools that changed since,
 * whose grants are then void.
 */
import { describe, expect, it } from 'vitest';
import { changedTools, grantsVoided, PinFold } from '../../../../../electron/core/mcp/pin-fold.js';
import type { Answer, CardBody, Grant, McpCardBody, McpServerCardBody } from '../../../../../shared/cards.js';
import type { EventPayload, SessionEvent } from '../../../../../shared/events.js';

const SOURCE = '/w/.mcp.json';
const TOOL = 'mcp__s__echo';

let seq = 0;
const event = (payload: EventPayload): SessionEvent => ({ seq: ++seq, ts: new Date(0).toISOString(), ...payload });

function toolCard(description: string): McpCardBody {
  return {
    kind: 'mcp',
    tool: TOOL,
    server: 's',
    name: 'echo',
    description,
    inputSchema: { type: 'object' },
    argsJson: '{}',
    argsCanonical: '{}',
    fingerprint: `tool:${description}`,
  };
}

const startCard = (fingerprint: string): McpServerCardBody => ({
  kind: 'mcp_server',
  server: 's',
  source: SOURCE,
  fingerprint,
});

const GRANT: Grant = { kind: 'write', path: '/w/a' }; // the fold reads no card's grant

/** Folds a card and, unless `answer` is null, its answer. */
function answered(pins: PinFold, cardId: string, body: CardBody, answer: Answer | null): void {
  pins.add(event({ type: 'card', turnId: 't', toolCallId: 'c', cardId, body, grant: GRANT, scope: '' }));
  if (answer) pins.add(event({ type: 'card_answer', cardId, answer }));
}

describe("the pin fold of a tool's card", () => {
  it('pins the description and schema the person allowed, once or for the session', () => {
    const pins = new PinFold();
    answered(pins, 'k1', toolCard('Echoes'), 'allow_once');
    expect(pins.allowedShape(TOOL)).toEqual({ description: 'Echoes', inputSchema: { type: 'object' } });
    answered(pins, 'k2', toolCard('Echoes louder'), 'allow_session');
    expect(pins.allowedShape(TOOL)?.description).toBe('Echoes louder');
  });

  it('pins nothing the person denied', () => {
    const pins = new PinFold();
    answered(pins, 'k1', toolCard('Echoes'), 'deny');
    expect(pins.allowedShape(TOOL)).toBeUndefined();
  });

  it('ignores an answer to a card withdrawn or gone stale, and an answer to no card', () => {
    const pins = new PinFold();
    answered(pins, 'k1', toolCard('Echoes'), null);
    pins.add(event({ type: 'card_withdrawn', cardId: 'k1', reason: 'the app restarted' }));
    pins.add(event({ type: 'card_answer', cardId: 'k1', answer: 'allow_once' }));
    answered(pins, 'k2', toolCard('Echoes'), null);
    pins.add(event({ type: 'card_stale', cardId: 'k2', answer: 'allow_once', reason: 'it changed' }));
    pins.add(event({ type: 'card_answer', cardId: 'k2', answer: 'allow_once' }));
    pins.add(event({ type: 'card_answer', cardId: 'never-shown', answer: 'allow_once' }));
    expect(pins.allowedShape(TOOL)).toBeUndefined();
  });
});

describe("the pin fold of a server's start card", () => {
  const s = { source: SOURCE, name: 's' };

  it('remembers the config denied, until a start of it is allowed', () => {
    const pins = new PinFold();
    answered(pins, 'k1', startCard('v1'), 'deny');
    expect(pins.deniedStart(s)).toBe('v1');
    expect(pins.allowedStart(s)).toBeUndefined();
    answered(pins, 'k2', startCard('v2'), 'allow_once');
    expect(pins.deniedStart(s)).toBeUndefined();
    expect(pins.allowedStart(s)).toBe('v2');
  });

  it('keeps a server of the same name in another file apart', () => {
    const pins = new PinFold();
    answered(pins, 'k1', startCard('v1'), 'deny');
    expect(pins.deniedStart({ source: '/data/mcp.json', name: 's' })).toBeUndefined();
  });

  it("forgets a denial on Settings' Restart, and keeps what was allowed", () => {
    const pins = new PinFold();
    answered(pins, 'k1', startCard('v1'), 'allow_session');
    answered(pins, 'k2', startCard('v2'), 'deny');
    pins.forgetDenial(s);
    expect(pins.deniedStart(s)).toBeUndefined();
    expect(pins.allowedStart(s)).toBe('v1');
  });
});

describe("a server's tool list, compared with its last", () => {
  const list = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('names nothing the first time, nor when nothing changed', () => {
    const pins = new PinFold();
    expect(pins.relisted('s', list({ a: '1', b: '2' }))).toEqual([]);
    expect(pins.relisted('s', list({ a: '1', b: '2' }))).toEqual([]);
  });

  it('names a tool whose fingerprint changed and one no longer listed, not a new one', () => {
    const pins = new PinFold();
    pins.relisted('s', list({ a: '1', b: '2', c: '3' }));
    expect(pins.relisted('s', list({ a: '1', b: 'changed', d: '4' }))).toEqual(['b', 'c']);
  });

  it('compares each server with its own last list', () => {
    const pins = new PinFold();
    pins.relisted('s', list({ a: '1' }));
    expect(pins.relisted('t', list({ a: 'other' }))).toEqual([]);
  });

  it('is a comparison of the two lists alone', () => {
    expect(changedTools(list({ a: '1', b: '2' }), list({ a: '1', b: '3' }))).toEqual(['b']);
  });
});

describe("a changed tool's grants", () => {
  it('are the mcp grants for that tool, whatever their arguments; no other grant is void', () => {
    const grants: Grant[] = [
      { kind: 'mcp', tool: TOOL, args: '{"a":1}', fingerprint: 'f' },
      { kind: 'mcp', tool: TOOL, args: '{"a":2}', fingerprint: 'f' },
      { kind: 'mcp', tool: 'mcp__s__other', args: '{}', fingerprint: 'f' },
      { kind: 'mcp_server', server: 's', source: SOURCE, fingerprint: 'f' },
    ];
    expect(grantsVoided(TOOL, grants)).toBe(2);
    expect(grantsVoided('mcp__s__gone', grants)).toBe(0);
  });
});
