/**
 * Why Electron stopped as it started, in one line: from the first lines it wrote to stderr
 * (Chromium's and the dynamic loader's own words for the common reasons on Linux desktops),
 * else from its exit code or signal. `npm start` prints it before serving the app to the
 * browser instead.
 */

export const SERVING_INSTEAD = 'serving the same app in your browser instead';

/** A start-up failure recognised by the words Chromium or the loader prints for it. */
interface KnownFailure {
  words: RegExp;
  why(match: RegExpMatchArray): string;
}

const KNOWN: readonly KnownFailure[] = [
  {
    words: /Running as root without --no-sandbox is not supported/,
    why: () => 'Electron will not run as root with its sandbox on (`npm start -- --no-sandbox` turns the sandbox off)',
  },
  {
    // Chromium names the helper: "You need to make sure that …/chrome-sandbox is owned by root and has mode 4755."
    words: /SUID sandbox helper binary was found, but is not configured correctly[^]*?make sure that (\S+) is owned/,
    why: (m) =>
      `Electron's sandbox helper ${m[1]} must be owned by root with mode 4755 (Ubuntu 23.10 and later also restrict the user namespaces it would use otherwise)`,
  },
  {
    words: /SUID sandbox helper binary was found, but is not configured correctly/,
    why: () =>
      "Electron's sandbox helper (chrome-sandbox) must be owned by root with mode 4755 (Ubuntu 23.10 and later also restrict the user namespaces it would use otherwise)",
  },
  {
    words: /No usable sandbox!/,
    why: () =>
      'Electron found no usable sandbox: user namespaces are restricted (AppArmor, as on Ubuntu 23.10 and later) and chrome-sandbox is not setuid root',
  },
  {
    words: /error while loading shared libraries: ([^\s:]+)/,
    why: (m) => `Electron needs the system library ${m[1]}, which is not installed`,
  },
  {
    words: /Missing X server or \$DISPLAY|cannot open display|platform failed to initialize/i,
    why: () => 'Electron could not open a window on this display (no X server or Wayland compositor answered)',
  },
];

/** The longest of Electron's own line quoted when its failure is not a known one. */
const QUOTE_MAX = 200;

export interface ElectronExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function whyElectronStopped(exit: ElectronExit, stderrHead: string): string {
  for (const known of KNOWN) {
    const match = stderrHead.match(known.words);
    if (match) return `${known.why(match)} — ${SERVING_INSTEAD}`;
  }
  const how = exit.signal
    ? `was stopped by ${exit.signal} as it started (a damaged download?)`
    : `exited with code ${exit.code} as it started`;
  const said = firstLine(stderrHead);
  return `Electron ${how}${said ? `: ${said}` : ''} — ${SERVING_INSTEAD}`;
}

/** Why the binary could not be run at all (spawn's error), in one line. */
export function whyElectronDidNotRun(err: NodeJS.ErrnoException): string {
  const code = err.code ?? 'error';
  const hint =
    code === 'ENOEXEC' || code === 'EACCES' ? ' (not a program for this machine, or a damaged download)' : '';
  return `The Electron binary could not be run: ${code}${hint} — ${SERVING_INSTEAD}`;
}

/** The first line that says something, without Chromium's `[pid:time:LEVEL:file(line)]` prefix. */
function firstLine(text: string): string {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\[[^\]]*\]\s*/, '').trim();
    if (line !== '') return line.length > QUOTE_MAX ? `${line.slice(0, QUOTE_MAX)}…` : line;
  }
  return '';
}
