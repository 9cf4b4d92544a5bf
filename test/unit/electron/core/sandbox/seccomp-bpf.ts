/**
 * A small classic-BPF interpreter for seccomp programs, as the kernel runs them: it reads
 * struct seccomp_data (nr, arch, instruction pointer, six 64-bit arguments) and returns
 * the action word. It knows only the instructions a seccomp filter of ours may use and
 * throws on any other, on a jump out of the program, on a load outside seccomp_data, and
 * on running off the end, so a test of decisions is also a test that the program is sound.
 */

export interface SeccompData {
  nr: number;
  arch: number;
  /** Up to six arguments, each a 64-bit value. */
  args?: readonly bigint[];
}

export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ACTION_FULL = 0xffff0000;
const SECCOMP_DATA_SIZE = 64;
/** BPF_MAXINSNS: the kernel refuses longer programs. */
export const BPF_MAXINSNS = 4096;

/** What the program decided, spelled as a test reads it. */
export type Verdict = 'allow' | 'kill' | { errno: number };

export function verdict(action: number): Verdict {
  if (action === SECCOMP_RET_ALLOW) return 'allow';
  if (action === SECCOMP_RET_KILL_PROCESS) return 'kill';
  if ((action & SECCOMP_RET_ACTION_FULL) >>> 0 === SECCOMP_RET_ERRNO) return { errno: action & 0xffff };
  throw new Error(`an action this interpreter does not spell: 0x${action.toString(16)}`);
}

/** The program's decision for one call. */
export function runSeccomp(program: Buffer, data: SeccompData): Verdict {
  if (program.length === 0 || program.length % 8 !== 0) throw new Error('not a whole number of instructions');
  const count = program.length / 8;
  if (count > BPF_MAXINSNS) throw new Error(`${count} instructions, over the kernel's ${BPF_MAXINSNS}`);
  const bytes = seccompData(data);
  let acc = 0;
  for (let pc = 0; pc < count;) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    const jump = (taken: boolean) => {
      const to = pc + 1 + (taken ? jt : jf);
      if (to >= count) throw new Error(`instruction ${pc} jumps past the end`);
      return to;
    };
    switch (code) {
      case 0x20: // BPF_LD | BPF_W | BPF_ABS
        if (k % 4 !== 0 || k + 4 > SECCOMP_DATA_SIZE) throw new Error(`instruction ${pc} loads outside seccomp_data`);
        acc = bytes.readUInt32LE(k);
        pc++;
        break;
      case 0x15: // BPF_JMP | BPF_JEQ | BPF_K
        pc = jump(acc === k);
        break;
      case 0x35: // BPF_JMP | BPF_JGE | BPF_K (unsigned)
        pc = jump(acc >= k);
        break;
      case 0x25: // BPF_JMP | BPF_JGT | BPF_K (unsigned)
        pc = jump(acc > k);
        break;
      case 0x06: // BPF_RET | BPF_K
        return verdict(k);
      default:
        throw new Error(`instruction ${pc}: opcode 0x${code.toString(16)} is not one this interpreter knows`);
    }
  }
  throw new Error('the program ran off its end');
}

/** struct seccomp_data, little-endian: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]. */
function seccompData({ nr, arch, args = [] }: SeccompData): Buffer {
  const out = Buffer.alloc(SECCOMP_DATA_SIZE);
  out.writeUInt32LE(nr >>> 0, 0);
  out.writeUInt32LE(arch >>> 0, 4);
  args.forEach((arg, i) => out.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + i * 8));
  return out;
}
