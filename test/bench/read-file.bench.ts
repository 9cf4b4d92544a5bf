/**
 * read_file against a plain positioned read: 32 KiB from the start of a 1 MiB text file.
 * Ours includes everything a call costs (argument check, path resolution when planned
 * and again when executed, open, binary sniff, UTF-8 trim, close). The reference is the
 * least a plain read of a file costs: open, one fs.read on the fd, close. A bare fs.read
 * on an fd held open is printed too, for scale.
 */
import { mkdtempSync, rmSync, writeFileSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { READ_MAX_BYTES } from '../../shared/limits.js';
import { Workspace } from '../../electron/core/paths/workspace.js';
import { Tools } from '../../electron/core/tools/tools.js';
import { measure, reportRatio, reportValue, type Timing } from './measure.js';
import { unconfined } from '../support/unconfined.js';

const ROUNDS = 7;
const PER_ROUND = 500;

function medianOf(timings: Timing[], key: 'p50' | 'p99'): number {
  const values = timings.map((t) => t[key]).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? NaN;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-read-'));
try {
  const file = path.join(dir, 'src', 'big.ts');
  await fs.mkdir(path.dirname(file));
  writeFileSync(file, 'export const line = "some ordinary source text";\n'.repeat(22_000));
  const tools = new Tools({ workspace: await Workspace.open(dir), commandEnv: {}, sandbox: unconfined() });

  const viaTool = async () => {
    const r = await tools.execute(await tools.plan('read_file', { path: 'src/big.ts', offset: 0 }));
    if (!r.ok) throw new Error(r.error);
  };
  const buffer = Buffer.allocUnsafe(READ_MAX_BYTES);
  const openReadClose = async () => {
    const handle = await fs.open(file, 'r');
    await handle.read(buffer, 0, READ_MAX_BYTES, 0);
    await handle.close();
  };
  const held = await fs.open(file, 'r');
  const bareRead = () => held.read(buffer, 0, READ_MAX_BYTES, 0);

  // Alternating rounds, so a change in machine load hits both sides alike.
  const ours: Timing[] = [];
  const reference: Timing[] = [];
  const bare: Timing[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(await measure(viaTool, PER_ROUND, 100));
    reference.push(await measure(openReadClose, PER_ROUND, 100));
    bare.push(await measure(bareRead, PER_ROUND, 100));
  }
  await held.close();

  reportRatio('read_file 32 KiB p50 vs open+read+close', medianOf(ours, 'p50'), medianOf(reference, 'p50'), 2);
  reportValue('read_file 32 KiB p50', medianOf(ours, 'p50'), 1, 'ms');
  console.log(
    `  (for scale: bare fs.read on a held fd p50 ${medianOf(bare, 'p50').toFixed(3)} ms; read_file p99 ${medianOf(ours, 'p99').toFixed(3)} ms; median of ${ROUNDS} rounds of ${PER_ROUND})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
