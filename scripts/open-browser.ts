/**
 * Opens a URL in the desktop's browser where there is a desktop; otherwise says in one line
 * that the user should open it. Never waits for the browser. The URL goes on a command line
 * that every local user can read (`ps`), so it must carry no secret: `npm start` passes the
 * file URL of a launch page only this user can read (electron/web/launch-page.ts).
 */
import { spawn } from 'node:child_process';

/** The command that opens a URL here, or null when there is no desktop to open it on. */
export function browserCommand(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { command: string; args: (url: string) => string[] } | null {
  if (platform === 'darwin') return { command: 'open', args: (url) => [url] };
  // `start` is a cmd builtin; its first quoted argument is a window title.
  if (platform === 'win32') return { command: 'cmd', args: (url) => ['/c', 'start', '""', url] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { command: 'xdg-open', args: (url) => [url] };
  return null;
}

export function openBrowser(url: string, platform = process.platform, env = process.env): void {
  const how = browserCommand(platform, env);
  if (!how) {
    console.log('No desktop session here (no DISPLAY or WAYLAND_DISPLAY): open the URL above in a browser.');
    return;
  }
  // cmd parses its own command line: pass `start "" URL` to it as written.
  const child = spawn(how.command, how.args(url), {
    stdio: 'ignore',
    detached: true,
    windowsVerbatimArguments: platform === 'win32',
  });
  child.on('error', (err) => console.log(`Could not open a browser (${err.message}): open the URL above yourself.`));
  child.unref();
}
