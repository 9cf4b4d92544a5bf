/**
 * `npm run serve`: the web host in the foreground. Prints one URL carrying the access
 * token in its fragment; Ctrl-C (or SIGTERM) closes the sockets, stops live runs and
 * flushes the logs.
 */
import { serveUntilSignal } from '../electron/web/start-web-host.js';
import { parseServeArgs, ServeArgsError } from '../electron/web/serve-args.js';
import { dataDir } from './data-dir.js';
import { ensureRendererBuilt } from './renderer-build.js';

try {
  const args = parseServeArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  await ensureRendererBuilt(['missing']);
  await serveUntilSignal({
    dataDir: dataDir(args.dataDir, process.env),
    port: args.port,
    bindHost: args.host,
    hostNamedExplicitly: args.host !== undefined,
    openFolder: args.open,
    ...(args.agentModelEndpoint ? { agentModelEndpoint: args.agentModelEndpoint } : {}),
  });
} catch (err) {
  console.error(`gatehouse: ${err instanceof ServeArgsError ? err.message : (err as Error).message}`);
  process.exit(2);
}
