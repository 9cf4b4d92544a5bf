/**
 * The window's size and place, remembered in window-state.json in the data folder. A
 * saved place that no display shows any more (a monitor was unplugged) is dropped, so the
 * window never opens off screen.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Rectangle } from './electron-surface.js';

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 820 };
/** Smaller than this and the sidebar, transcript and card cannot all fit. */
export const MIN_SIZE = { width: 720, height: 480 };

const stateSchema = z.object({
  x: z.int(),
  y: z.int(),
  width: z.int().min(MIN_SIZE.width).max(20_000),
  height: z.int().min(MIN_SIZE.height).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof stateSchema>;

export async function loadWindowState(
  dataDir: string,
  displays: { workArea: Rectangle }[],
): Promise<WindowState | null> {
  let parsed: WindowState;
  try {
    const result = stateSchema.safeParse(JSON.parse(await fs.readFile(path.join(dataDir, WINDOW_STATE_FILE), 'utf8')));
    if (!result.success) return null;
    parsed = result.data;
  } catch {
    return null;
  }
  return displays.some((d) => overlapsEnough(parsed, d.workArea)) ? parsed : null;
}

export async function saveWindowState(dataDir: string, state: WindowState): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(path.join(dataDir, WINDOW_STATE_FILE), JSON.stringify(state));
}

/** At least a title bar's worth of the window must be on the display to grab it. */
function overlapsEnough(bounds: Rectangle, area: Rectangle): boolean {
  const width = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  const height = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
  return width >= 100 && height >= 40;
}
