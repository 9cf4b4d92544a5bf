/**
 * An expression for page.evaluate: counts animation frames in the page for `ms`
 * milliseconds, and the main thread's long tasks (over 50 ms) meanwhile; resolves to
 * { fps, worstFrameMs, frames, longTasks, longTaskMs }.
 */
export function countFrames(ms: number): string {
  return `new Promise((resolve) => {
    let longTasks = 0, longTaskMs = 0;
    const count = (entries) => { for (const entry of entries) { longTasks++; longTaskMs += entry.duration; } };
    const observer = new PerformanceObserver((list) => count(list.getEntries()));
    observer.observe({ type: 'longtask' });
    let frames = 0, worst = 0, last = performance.now();
    const start = last;
    const tick = (now) => {
      frames++;
      worst = Math.max(worst, now - last);
      last = now;
      if (now - start < ${ms}) requestAnimationFrame(tick);
      else {
        count(observer.takeRecords());
        observer.disconnect();
        resolve({ fps: (frames * 1000) / (now - start), worstFrameMs: worst, frames, longTasks, longTaskMs });
      }
    };
    requestAnimationFrame(tick);
  })`;
}

export interface FrameCount {
  fps: number;
  worstFrameMs: number;
  frames: number;
  longTasks: number;
  longTaskMs: number;
}
