/**
 * One line for the model when a confined command failed the way a sandbox makes
 * commands fail, read from its stderr: a write outside the workspace (a read-only file
 * system), a hidden place (seen as empty or missing), or no network. The model then
 * knows it was the sandbox, not the code, and whether asking for network: true (or,
 * as a last resort, unconfined: true) would help.
 */
import { PERSONAL_SYSTEM_PLACES } from './profile.js';
import type { SandboxProfile } from './sandbox.js';

const READ_ONLY = /Read-only file system|EROFS/;
/** A write that failed: read-only, or a folder missing where it was to be made (inside an emptied /var/tmp). */
const WRITE = /Read-only file system|EROFS|can't create|cannot create|Directory nonexistent|nonexistent directory/i;
const NOT_FOUND = /No such file or directory|ENOENT|not found|cannot access|can't open/i;
/** A line that names a socket and a refusal, in either order (Node: "connect EPERM /x.sock"). */
const UNIX_SOCKET = /^(?=.*(socket|\.sock\b|AF_UNIX))(?=.*(Operation not permitted|EPERM)).*$/im;
const NO_NETWORK =
  /Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|Name or service not known|EAI_AGAIN|getaddrinfo ENOTFOUND|No address associated with hostname|Connection refused|ECONNREFUSED|Couldn't connect to server/i;

export function sandboxViolation(stderr: string, profile: SandboxProfile): string | null {
  const named = (p: string) => spellings(p, profile.writable).some((spelling) => mentions(stderr, spelling));
  const hidden = profile.hidden.find((p) => (holdsVisible(p, profile) ? namesBelow(stderr, p, profile) : named(p)));
  if (hidden && PERSONAL_SYSTEM_PLACES.includes(hidden)) {
    if (WRITE.test(stderr)) return readOnlyViolation(profile, named);
    return `blocked by the sandbox: ${hidden} is hidden from commands (mounted disks, media and /var/tmp are not shown; the user can add a place in Settings); work without it`;
  }
  if (hidden) {
    return `blocked by the sandbox: ${hidden} is hidden from commands (secrets and the app's data stay out of reach); work without it`;
  }
  if (READ_ONLY.test(stderr)) return readOnlyViolation(profile, named);
  const unshown = unshownHomePath(stderr, profile);
  if (unshown) {
    return `blocked by the sandbox: ${unshown} is not shown to commands (the home folder is empty inside but for toolchains and caches; the user can add a place in Settings); work without it`;
  }
  if (UNIX_SOCKET.test(stderr)) {
    return "blocked by the sandbox: commands cannot open Unix sockets (the machine's services, agents and daemons are out of reach)";
  }
  if (!profile.network && NO_NETWORK.test(stderr)) {
    return 'blocked by the sandbox: no network (run it again with network: true if it needs the network, e.g. to install packages)';
  }
  return null;
}

function readOnlyViolation(profile: SandboxProfile, named: (p: string) => boolean): string {
  // First, by its full path: the workspace's own `.git` file would match its mention too.
  const repository = profile.shown.find((p) => isGitPlace(p) && named(p));
  // A worktree's repository (git-places.ts): in a session's place, never writable, whatever the command asks.
  if (repository) {
    return `blocked by the sandbox: ${repository} is the repository this worktree belongs to, shown read-only so git can read it; no command writes it (not even with git: true): the changes reach it when the person applies them`;
  }
  const protectedHit = profile.readOnly.find(named);
  if (protectedHit && isGitPlace(protectedHit)) {
    return profile.git
      ? `blocked by the sandbox: ${protectedHit} stays read-only even with git: true (hooks and config are never writable by a command)`
      : 'blocked by the sandbox: .git is read-only; ask with git: true if the command must commit, check out or fetch';
  }
  if (protectedHit) return `blocked by the sandbox: ${protectedHit} stays read-only inside the sandbox`;
  const shownHit = profile.shown.find(named);
  if (shownHit)
    return `blocked by the sandbox: ${shownHit} is shown read-only (a toolchain or cache); write in the workspace or /tmp`;
  return `blocked by the sandbox: write outside the workspace (only ${profile.writable.join(', ')}, a private /tmp and a private home are writable)`;
}

function isGitPlace(p: string): boolean {
  return /(^|\/)\.git(\/|$)/.test(p);
}

/** Whether a hidden place holds the workspace or a shown place (it is emptied around them: /var/tmp). */
function holdsVisible(p: string, profile: SandboxProfile): boolean {
  return [...profile.writable, ...profile.shown].some((v) => v.startsWith(`${p}/`));
}

/** Whether the text names a path inside `hidden` that is not inside what is shown through it. */
function namesBelow(text: string, hidden: string, profile: SandboxProfile): boolean {
  const visible = [...profile.writable, ...profile.shown, profile.home];
  return [...text.matchAll(/(\/[^\s'"`:]+)/g)].some(([, p = '']) => {
    const inside = p === hidden || p.startsWith(`${hidden}/`);
    return inside && !visible.some((v) => p === v || p.startsWith(`${v}/`));
  });
}

/** A path below the home folder that the error names and the sandbox does not show. */
function unshownHomePath(stderr: string, profile: SandboxProfile): string | null {
  if (!NOT_FOUND.test(stderr) || profile.home === '/') return null;
  const home = profile.home.endsWith('/') ? profile.home : `${profile.home}/`;
  for (const match of stderr.matchAll(/(\/[^\s'"`:]+)/g)) {
    const p = match[1] ?? '';
    if (!p.startsWith(home)) continue;
    const visible = [...profile.shown, ...profile.writable].some((v) => p === v || p.startsWith(`${v}/`));
    if (!visible) return p;
  }
  return null;
}

/** The path, and as a command in the workspace may spell it: relative to the writable folder holding it. */
function spellings(p: string, roots: readonly string[]): string[] {
  const relative = roots.filter((r) => p.startsWith(`${r}/`)).map((r) => p.slice(r.length + 1));
  return [p, ...relative];
}

/** Whether the text names the path or something below it. */
function mentions(text: string, p: string): boolean {
  let at = text.indexOf(p);
  while (at >= 0) {
    const before = at === 0 ? undefined : text[at - 1];
    const next = text[at + p.length];
    const starts = before === undefined || !/[\w.-]/.test(before) || p.startsWith('/');
    if (starts && (next === undefined || !/[\w.-]/.test(next))) return true;
    at = text.indexOf(p, at + 1);
  }
  return false;
}
