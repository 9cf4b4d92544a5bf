/**
 * xterm.js cannot measure glyphs in jsdom, so the panel's tests swap it for this screen:
 * it records what was written and lets the test type and resize as a person would.
 * The real xterm runs in the Chromium e2e (test/e2e/terminal.e2e.ts).
 */
type Listener<T> = (value: T) => void;

class Emitter<T> {
  private listeners = new Set<Listener<T>>();
  on = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T) {
    for (const l of this.listeners) l(value);
  }
}

export class FakeTerminal {
  static instances: FakeTerminal[] = [];
  written = '';
  cols = 80;
  rows = 24;
  disposed = false;
  focused = false;
  element: HTMLElement | undefined;
  options: Record<string, unknown>;
  private readonly data = new Emitter<string>();
  private readonly resized = new Emitter<{ cols: number; rows: number }>();
  onData = this.data.on;
  onResize = this.resized.on;

  constructor(options: Record<string, unknown> = {}) {
    this.options = { ...options };
    FakeTerminal.instances.push(this);
  }
  keyHandler: ((event: KeyboardEvent) => boolean) | null = null;
  loadAddon() {}
  attachCustomKeyEventHandler(handler: (event: KeyboardEvent) => boolean) {
    this.keyHandler = handler;
  }
  open(parent: HTMLElement) {
    this.element = document.createElement('div');
    parent.appendChild(this.element);
  }
  write(data: string) {
    this.written += data;
  }
  focus() {
    this.focused = true;
  }
  dispose() {
    this.disposed = true;
  }
  /** The person typed (or pasted) this. */
  type(data: string) {
    this.data.fire(data);
  }
  resize(cols: number, rows: number) {
    this.cols = cols;
    this.rows = rows;
    this.resized.fire({ cols, rows });
  }
}

export class FakeFitAddon {
  fit() {}
}
