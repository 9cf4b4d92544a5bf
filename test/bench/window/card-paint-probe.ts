/**
 * A script injected into the page before the app: it timestamps every pushed card event as
 * its WebSocket message arrives (our listener is added first, so it runs before the app's),
 * and the first frame painted after that card's region shows its diff text. Plain browser
 * code as a string: it runs in Chromium, not here.
 */

export interface CardTiming {
  pushAt: number;
  shownAt?: number;
  paintedAt?: number;
}

/** `marker` is text the diff rows contain once painted (the first changed line). */
export function cardPaintProbe(marker: string): string {
  return `(() => {
  const timings = {};
  window.__gatehouseBench = { cards: timings };
  const findCards = (value, at, depth) => {
    if (!value || typeof value !== 'object' || depth > 8) return;
    if (value.type === 'card' && value.body && typeof value.body.path === 'string') {
      if (!timings[value.body.path]) timings[value.body.path] = { pushAt: at };
      return;
    }
    for (const key of Object.keys(value)) findCards(value[key], at, depth + 1);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        const at = performance.now();
        if (typeof ev.data !== 'string' || !ev.data.includes('"card"')) return;
        try { findCards(JSON.parse(ev.data), at, 0); } catch {}
      });
    }
  };
  const PREFIX = 'Permission: write ';
  const check = () => {
    for (const region of document.querySelectorAll('[role="region"][aria-label^="' + PREFIX + '"]')) {
      // Cards name a file relative to the workspace; pushes carry the absolute path.
      const shown = region.getAttribute('aria-label').slice(PREFIX.length);
      const key = Object.keys(timings).find((p) => p === shown || p.endsWith('/' + shown));
      const t = key && timings[key];
      if (!t || t.shownAt !== undefined) continue;
      if (!(region.textContent || '').includes(${JSON.stringify(marker)})) continue;
      t.shownAt = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { t.paintedAt = performance.now(); }));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})();`;
}

/**
 * Reference, as an expression for page.evaluate: the same number of plain-text rows appended
 * to the page, timed to the frame painted after them (ms).
 */
export function plainRowsPaint(rows: number, text: string): string {
  return `new Promise((resolve) => {
    const t0 = performance.now();
    const box = document.createElement('div');
    for (let i = 0; i < ${rows}; i++) {
      const row = document.createElement('div');
      row.textContent = ${JSON.stringify(text)} + ' ' + i;
      box.append(row);
    }
    document.body.append(box);
    requestAnimationFrame(() => requestAnimationFrame(() => { resolve(performance.now() - t0); box.remove(); }));
  })`;
}

/**
 * Second reference, as an expression for page.evaluate once diff2html's browser bundle is
 * loaded: the whole diff as diff2html's own side-by-side HTML (what DESIGN.md measured at
 * 450-640 ms for 64 KiB), set into the page, timed to the frame painted after it (ms).
 */
export function wholeDiff2HtmlPaint(diff: string): string {
  return `((diff) => new Promise((resolve) => {
    const t0 = performance.now();
    const box = document.createElement('div');
    // Test-only reference: diff2html escapes the diff's content in the HTML it builds.
    box.innerHTML = Diff2Html.html(diff, { outputFormat: 'side-by-side', drawFileList: false });
    document.body.append(box);
    requestAnimationFrame(() => requestAnimationFrame(() => { resolve(performance.now() - t0); box.remove(); }));
  }))(${JSON.stringify(diff)})`;
}
