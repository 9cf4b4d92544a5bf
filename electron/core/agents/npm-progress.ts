/**
 * How far an agent's install has got, read from npm itself. The install resolves first
 * (`npm install --package-lock-only`, which writes the lockfile: the whole tree, every
 * tarball named), then fetches it (`npm ci`), and with `--loglevel http` npm prints a line
 * for every request, from the network or its cache. So the fraction is the tarballs seen
 * of the tarballs this machine will fetch: the lockfile's entries fetched from a registry,
 * minus those for other platforms (a native binary comes as one optional package per
 * platform, and npm fetches only this one's).
 */

/** One `packages` entry of a lockfile (v2/v3), the fields that decide whether it is fetched here. */
interface LockEntry {
  version?: string;
  resolved?: string;
  link?: boolean;
  inBundle?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

export interface Platform {
  os: string;
  cpu: string;
  /** 'glibc' or 'musl' on Linux; null elsewhere. */
  libc: string | null;
}

export function thisPlatform(): Platform {
  if (process.platform !== 'linux') return { os: process.platform, cpu: process.arch, libc: null };
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return { os: process.platform, cpu: process.arch, libc: header?.glibcVersionRuntime ? 'glibc' : 'musl' };
}

/** How many tarballs `npm ci` will fetch from a registry for this lockfile here; 0 when none or unreadable. */
export function tarballsToFetch(lockText: string, here: Platform): number {
  let packages: Record<string, LockEntry>;
  try {
    packages = (JSON.parse(lockText) as { packages?: Record<string, LockEntry> }).packages ?? {};
  } catch {
    return 0;
  }
  // One package at one version is fetched once, however many places in the tree hold it.
  const fetched = new Set<string>();
  for (const [where, entry] of Object.entries(packages)) {
    if (where !== '' && fetchedHere(entry, here)) fetched.add(`${packageName(where)}@${entry.version ?? ''}`);
  }
  return fetched.size;
}

/** `node_modules/a/node_modules/@s/b` → `@s/b`. */
function packageName(where: string): string {
  const at = where.lastIndexOf('node_modules/');
  return at < 0 ? where : where.slice(at + 'node_modules/'.length);
}

function fetchedHere(entry: LockEntry, here: Platform): boolean {
  // A lockfile made with --package-lock-only leaves out `resolved` for the registry's own
  // tarballs; one that names a local file or folder is not fetched.
  if (entry.link || entry.inBundle) return false;
  if (entry.resolved !== undefined && !/^https?:\/\//.test(entry.resolved)) return false;
  return fits(entry.os, here.os) && fits(entry.cpu, here.cpu) && (here.libc === null || fits(entry.libc, here.libc));
}

/** npm's rule for os/cpu/libc lists: "!x" excludes x; any plain entry means only those. */
function fits(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const allowed = list.filter((v) => !v.startsWith('!'));
  return allowed.length === 0 || allowed.includes(value);
}

/** What one line of npm's output says, for progress. */
export type NpmLine =
  | { kind: 'tarball'; url: string }
  | { kind: 'metadata'; name: string }
  | { kind: 'problem'; text: string }
  | { kind: 'other' };

const HTTP_LINE = /^npm http (?:fetch \w+ \d+|cache) (\S+)/;

export function readNpmLine(line: string): NpmLine {
  const http = HTTP_LINE.exec(line);
  if (http) {
    const target = http[1] as string;
    const tarball = /https?:\/\/\S+\.tgz/.exec(target);
    if (tarball) return { kind: 'tarball', url: tarball[0] };
    const name = /^https?:\/\/[^/]+\/(.+)$/.exec(target)?.[1];
    return name ? { kind: 'metadata', name: decodeURIComponent(name) } : { kind: 'other' };
  }
  const problem = /^npm (?:error|ERR!) (.*)$/.exec(line)?.[1];
  if (problem !== undefined) return { kind: 'problem', text: problem };
  return { kind: 'other' };
}

/** npm's error lines worth showing, in one line (its pointers to its own log files left out). */
export function npmProblem(lines: readonly string[]): string {
  const useful = lines.filter(
    (l) => l.trim() !== '' && !/complete log of this run|A complete log|\.npm\/_logs\//.test(l),
  );
  return useful.slice(0, 4).join(' ').replace(/\s+/g, ' ').slice(0, 400);
}

/** Splits streamed output into whole lines. */
export class LineSplitter {
  private rest = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    const parts = (this.rest + chunk).split('\n');
    this.rest = parts.pop() ?? '';
    for (const part of parts) this.onLine(part.replace(/\r$/, ''));
  }

  end(): void {
    if (this.rest !== '') this.onLine(this.rest);
    this.rest = '';
  }
}
