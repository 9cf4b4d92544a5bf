/**
 * A script injected into the page before the app, for the card-editing bench: it times each
 * key pressed in a write card's editor (timestamped at keydown, in the capture phase, before
 * the editor sees it) to two frames after (a) the editor shows the text and (b) the card's
 * diff shows it, and it times each card.preview call over the WebSocket (sent to reply): a
 * key whose diff the window built itself sends none.
 * Plain browser code as a string: it runs in Chromium, not here.
 *
 * The bench sets `__editBench.expect` before each key: text the line being typed holds once
 * that key has landed.
 */
export interface KeyTiming {
  /** keydown -> two frames after the editor's own line shows the text. */
  echo?: number;
  /** keydown -> two frames after the card's diff shows it. */
  diff?: number;
  /** keydown -> this key's card.preview sent; absent when the window built the diff itself. */
  sent?: number;
  /** keydown -> its reply arrived. */
  replied?: number;
}

export const CARD_EDIT_PROBE = `(() => {
  const bench = { expect: null, keys: [], previews: [] };
  window.__editBench = bench;
  let current = null;
  window.addEventListener('keydown', (e) => {
    if (!(e.target instanceof Element) || !e.target.closest('.cm-editor') || bench.expect === null) return;
    current = { t0: performance.now(), expect: bench.expect, timing: {} };
    bench.keys.push(current.timing);
    bench.expect = null;
  }, true);
  const painted = (key, t0, timing) =>
    requestAnimationFrame(() => requestAnimationFrame(() => { timing[key] = performance.now() - t0; }));
  const check = () => {
    const k = current;
    if (!k) return;
    const card = document.querySelector('.card-open');
    if (!card) return;
    if (k.echoSeen === undefined) {
      const editor = card.querySelector('.cm-content');
      if (editor && (editor.textContent || '').includes(k.expect)) { k.echoSeen = true; painted('echo', k.t0, k.timing); }
    }
    if (k.diffSeen === undefined) {
      const diff = card.querySelector('.diff-view');
      if (diff && (diff.textContent || '').includes(k.expect)) { k.diffSeen = true; painted('diff', k.t0, k.timing); }
    }
    if (k.echoSeen && k.diffSeen) current = null;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });

  const sentAt = new Map();
  // Calls of the bench's own, on the app's socket, with ids the app never uses (it ignores their replies).
  const own = new Map();
  let ownId = 900000;
  let socket = null;
  bench.call = (name, payload) => new Promise((resolve) => {
    const id = ++ownId;
    own.set(id, { at: performance.now(), resolve });
    socket.send(JSON.stringify({ t: 'call', id, name, payload }));
  });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      socket = this;
      this.addEventListener('message', (ev) => {
        if (typeof ev.data !== 'string' || !ev.data.startsWith('{"t":"reply"')) return;
        const m = /^\\{"t":"reply","id":(\\d+)/.exec(ev.data);
        const id = m && Number(m[1]);
        if (id !== null && own.has(id)) {
          const call = own.get(id);
          own.delete(id);
          call.resolve({ ms: performance.now() - call.at, ok: ev.data.includes('"ok":true') });
          return;
        }
        if (id !== null && sentAt.has(id)) {
          const now = performance.now();
          const sent = sentAt.get(id);
          bench.previews.push(now - sent.at);
          if (sent.key && sent.key.replied === undefined) sent.key.replied = now - sent.t0;
          sentAt.delete(id);
        }
      });
    }
    send(data) {
      if (typeof data === 'string' && !bench.card && /"name":"card\\.(proposal|preview)"/.test(data)) {
        const p = JSON.parse(data).payload;
        bench.card = { id: p.id, cardId: p.cardId };
      }
      if (typeof data === 'string' && data.includes('"name":"card.preview"')) {
        const m = /"id":(\\d+)/.exec(data);
        const at = performance.now();
        const k = current;
        if (k && k.timing.sent === undefined) k.timing.sent = at - k.t0;
        if (m) sentAt.set(Number(m[1]), { at, key: k && k.timing, t0: k && k.t0 });
      }
      return super.send(data);
    }
  };
})();`;
