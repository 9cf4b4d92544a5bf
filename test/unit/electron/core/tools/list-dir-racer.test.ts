/**
 * Issue 31, found by the property suite's racer: list_dir of a folder that a confined
 * process keeps exchanging with a link to a folder outside (renameat2 RENAME_EXCHANGE, a
 * swap and a swap back while readdir runs) never names what the outside folder holds.
 * The pin before and the check after cannot see a swap and back; the folder is read
 * through its own descriptor instead. With the real bubblewrap; a fake home under /var/tmp.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ToolContext } from '../../../../../electron/core/tools/tool-def.js';
import { exchanges, raceAsServer, racing, setUpRace, stopRace, untangle } from '../sandbox/link-racer.js';

/** A name only the outside folder holds. */
const OUTSIDE_NAME = 'GATEHOUSE-RACER-OUTSIDE-NAME-7c2d.txt';

let root: string;
let home: string;
let ws: string;
let sandbox: BwrapSandbox;
let ctx: ToolContext;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-list-racer-'));
  home = path.join(root, 'home');
  const dataDir = path.join(root, 'data');
  ws = path.join(home, 'src', 'app');
  const outside = path.join(home, 'private');
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, OUTSIDE_NAME), 'outside\n');
  await fs.mkdir(dataDir, { recursive: true });
  await fs.mkdir(path.join(ws, 'd'), { recursive: true });
  for (let i = 0; i < 20; i++) await fs.writeFile(path.join(ws, 'd', `f${i}.txt`), 'inside\n');
  await setUpRace(ws, outside);
  sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
  ctx = {
    workspace: await Workspace.open(ws, { dataDir }),
    commandEnv: { PATH: process.env.PATH, HOME: home },
    sandbox: { sandbox, refuseUnconfined: () => false },
  };
});
afterEach(async () => {
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

it(
  'never names what the outside folder holds while a confined racer swaps the listed folder',
  { timeout: 120_000 },
  async () => {
    const server = await raceAsServer(sandbox, ws, 100);
    const output: Buffer[] = [];
    server.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    await racing(ws);
    const tools = new Tools(ctx);
    let leaked = 0;
    let listed = 0;
    try {
      // Most plans meet `d` as the link (refused in words); it takes a while for enough
      // listings to meet it as the folder all the way through. Bounded in time and tries.
      const until = Date.now() + 40_000;
      for (let i = 0; i < 20_000 && listed < 300 && Date.now() < until; i++) {
        // Planned while `d` is either; a swap since is a refusal in words, which is fine.
        const plan = await tools.plan('list_dir', { path: 'd' }).catch(() => null);
        if (plan === null) continue;
        // A swap seen at execution is a stale plan (the gate asks again): a refusal too.
        const result = await tools.execute(plan).catch((err: Error) => ({ ok: false as const, error: err.message }));
        const text = result.ok ? result.output : result.error;
        if (text.includes(OUTSIDE_NAME)) leaked++;
        if (result.ok && text.includes('f0.txt')) listed++;
      }
    } finally {
      await stopRace(ws);
    }
    await server.exited;
    await server.settle();
    await server.release();
    await untangle(ws);
    expect(exchanges(Buffer.concat(output).toString('utf8'))).toBeGreaterThan(0);
    // The lists did read `d` while it raced, and none named the outside file.
    expect(listed).toBeGreaterThan(0);
    expect(leaked).toBe(0);
  },
);
