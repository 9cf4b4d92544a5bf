/**
 * A seccomp program that refuses to create Unix sockets (SPEC §9: no Unix socket of the
 * host, on disk or abstract). A read-only mount does not stop connect(): a socket file
 * anywhere the sandbox shows (a database's, LXD's, a desktop's) would still answer. So a
 * confined command may not make an AF_UNIX socket at all: socket(AF_UNIX, …) fails with
 * EPERM. socketpair() stays allowed: its two ends are joined to each other and to nothing
 * of the host, and test runners (jest workers, multiprocessing) use them.
 *
 * Written here as classic BPF, eleven instructions, because no maintained npm package
 * builds seccomp programs (libseccomp has no Node binding we can install here, and
 * sandbox-runtime ships only a prebuilt helper that needs a nested user namespace, which
 * our `--disable-userns` refuses). bwrap loads it with `--seccomp FD`.
 */

/** struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low half, little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const AF_UNIX = 1;

interface Arch {
  audit: number;
  /** socket(2)'s number in this ABI. */
  socket: number;
  /** socketcall(2), which multiplexes socket() and hides its arguments: refused whole. */
  socketcall?: number;
}

/** The ABIs a process may use on each host architecture Node reports. */
const ABIS: Partial<Record<NodeJS.Architecture, Arch[]>> = {
  x64: [
    { audit: 0xc000003e, socket: 41 }, // x86_64
    { audit: 0xc000003e, socket: 0x40000000 + 41 }, // x32, same audit arch, numbers with bit 30
    { audit: 0x40000003, socket: 359, socketcall: 102 }, // i386 programs
  ],
  arm64: [
    { audit: 0xc00000b7, socket: 198 }, // aarch64
    { audit: 0x40000028, socket: 281 }, // 32-bit ARM (EABI has no socketcall)
  ],
};

type Insn = [code: number, jt: number, jf: number, k: number];

/** The program for this host, or null where we do not know its ABIs (the card then says so). */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const abis = ABIS[arch];
  if (!abis) return null;
  const program: Insn[] = [];
  for (const abi of abis) program.push(...abiBlock(abi));
  program.push([RET_K, 0, 0, RET_ALLOW]);
  return encode(program);
}

/**
 * For one ABI: if the arch matches and the call is socket(AF_UNIX) (or socketcall), EPERM;
 * otherwise fall through to the next block. Jumps are relative to the next instruction.
 */
function abiBlock(abi: Arch): Insn[] {
  const tail: Insn[] = [
    [LD_W_ABS, 0, 0, NR],
    ...(abi.socketcall === undefined ? [] : ([[JEQ_K, 3, 0, abi.socketcall]] as Insn[])),
    [JEQ_K, 0, 3, abi.socket],
    [LD_W_ABS, 0, 0, ARG0_LOW],
    [JEQ_K, 0, 1, AF_UNIX],
    [RET_K, 0, 0, RET_EPERM],
  ];
  // A wrong arch skips the whole tail; a socketcall jumps straight to the EPERM.
  return [[LD_W_ABS, 0, 0, ARCH], [JEQ_K, 0, tail.length, abi.audit], ...tail];
}

function encode(program: readonly Insn[]): Buffer {
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
