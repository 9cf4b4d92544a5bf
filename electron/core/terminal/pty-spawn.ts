/**
 * The seam between the terminal service and node-pty. The Electron shell can hand in a
 * spawn from an unpacked node-pty inside a package; tests and the web host use the default.
 */
import { createRequire } from 'node:module';
import type * as NodePty from 'node-pty';

export interface PtyOptions {
  name: string;
  cols: number;
  rows: number;
  cwd: string;
  env: Record<string, string>;
}

/** The part of node-pty's IPty the service uses. */
export interface PtyProcess {
  readonly pid: number;
  onData(listener: (data: string) => void): { dispose(): void };
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): { dispose(): void };
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
}

export type SpawnPty = (file: string, args: string[], options: PtyOptions) => PtyProcess;

/**
 * node-pty is a native module: it is loaded on the first terminal, not when the core
 * starts, so a core without a working binding still runs everything else.
 */
export const nodePtySpawn: SpawnPty = (file, args, options) => {
  const pty = createRequire(import.meta.url)('node-pty') as typeof NodePty;
  return pty.spawn(file, args, options);
};
