/**
 * jsdom lays nothing out, so a windowed list would see a 0 px viewport and render no rows.
 * This gives every element a fixed size while a test runs: a viewport of VIEWPORT_PX and
 * rows of ROW_PX, enough for the virtualizer to render the first screenful.
 */
import { afterEach, beforeEach } from 'vitest';

export const VIEWPORT_PX = 600;
export const ROW_PX = 20;

const stubs: [string, number][] = [
  ['clientHeight', VIEWPORT_PX],
  ['clientWidth', 800],
  ['offsetHeight', ROW_PX],
  ['offsetWidth', 800],
];

export function stubLayout(): void {
  const saved = new Map<string, PropertyDescriptor | undefined>();
  beforeEach(() => {
    for (const [name, value] of stubs) {
      saved.set(name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name));
      Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => value });
    }
  });
  afterEach(() => {
    for (const [name] of stubs) {
      const descriptor = saved.get(name);
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
    }
  });
}
