/**
 * A script injected into the page before the app: `window.__gatehouseBench.textPainted`
 * becomes the time of the second animation frame after any of the given texts first
 * appears in the document. `window.__gatehouseBench.startAt` is set by the bench just
 * before it clicks.
 */
export function firstTextProbe(texts: string[]): string {
  return `(() => {
  const bench = (window.__gatehouseBench = window.__gatehouseBench || {});
  const texts = ${JSON.stringify(texts)};
  const observer = new MutationObserver(() => {
    if (bench.startAt === undefined || bench.shownAt !== undefined) return;
    const all = document.body ? document.body.textContent || '' : '';
    if (!texts.some((t) => all.includes(t))) return;
    bench.shownAt = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => { bench.textPainted = performance.now(); }));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;
}

/**
 * Reference, as an expression for page.evaluate: parse these JSON lines and append one
 * plain-text row per event, no virtualizing, timed to the frame painted after them (ms).
 */
export function naiveRender(jsonl: string): string {
  return `((text) => new Promise((resolve) => {
    const t0 = performance.now();
    const box = document.createElement('div');
    for (const line of text.split('\\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      const row = document.createElement('div');
      row.textContent = e.type + ' ' + (e.text || e.output || '');
      box.append(row);
    }
    document.body.append(box);
    requestAnimationFrame(() => requestAnimationFrame(() => { resolve(performance.now() - t0); box.remove(); }));
  }))(${JSON.stringify(jsonl)})`;
}
