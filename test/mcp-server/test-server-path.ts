/**
 * Where tests start the test MCP server from. A workspace's server runs confined, with a
 * private /tmp: when the checkout itself lies under /tmp (a CI clone), the script and the
 * SDK it imports would be hidden inside the sandbox, as any program there is. So the
 * server is bundled once (esbuild, with its dependencies) into one file under /var/tmp,
 * named by the hash of what went into it. /var/tmp is hidden from confined processes
 * unless shown: the harnesses that start it confined show its folder (test-server-folder.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { TEST_SERVER_FOLDER } from './test-server-folder.js';

const SOURCE = fileURLToPath(new URL('./test-mcp-server.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

function bundled(): string {
  const sdk = readFileSync(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk/package.json'));
  const hash = createHash('sha256').update(readFileSync(SOURCE)).update(sdk).digest('hex').slice(0, 16);
  const dir = TEST_SERVER_FOLDER;
  const file = path.join(dir, `test-mcp-server-${hash}.mjs`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  buildSync({
    entryPoints: [SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: temp,
    // CommonJS dependencies (ajv) call require(): give the ES module one.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent',
  });
  renameSync(temp, file); // atomic: parallel test files never see half a bundle
  return file;
}

/** The test server as one self-contained file a confined process can read. */
export const TEST_SERVER = process.platform === 'linux' ? bundled() : SOURCE;
