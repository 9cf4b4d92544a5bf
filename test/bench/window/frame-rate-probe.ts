/**
 * An expression for page.evaluate: counts animation frames in the page for `ms`
 * milliseconds and resolves to { fps, worstFrameMs, frames }.
 */
export function countFrames(ms: number): string {
  return `new Promise((resolve) => {
    let frames = 0, worst = 0, last = performance.now();
    const start = last;
    const tick = (now) => {
      frames++;
      worst = Math.max(worst, now - last);
      last = now;
      if (now - start < ${ms}) requestAnimationFrame(tick);
      else resolve({ fps: (frames * 1000) / (now - start), worstFrameMs: worst, frames });
    };
    requestAnimationFrame(tick);
  })`;
}

export interface FrameCount {
  fps: number;
  worstFrameMs: number;
  frames: number;
}
