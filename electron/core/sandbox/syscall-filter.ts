/**
 * The seccomp program every confined command runs under (SPEC §9). What it watches is an
 * allow-list where a list can be drawn:
 * - socket(): only AF_INET, AF_INET6 and AF_NETLINK (getaddrinfo and os.networkInterfaces
 *   ask the kernel's routing netlink; the command's own network namespace is all it sees
 *   there). A read-only mount does not stop connect(): a Unix socket anywhere the sandbox
 *   shows (a database's, LXD's, a desktop's) would still answer, so AF_UNIX is refused
 *   with EPERM (violation.ts names that line);
 *   every other family (AF_VSOCK to the hypervisor, AF_PACKET, Bluetooth, …) gets
 *   EAFNOSUPPORT, what a kernel without that family says, so probing programs move on.
 * - socketpair(): only AF_UNIX. Its two ends are joined to each other and to nothing of
 *   the host, and Node's child_process, jest workers and multiprocessing need it.
 * - io_uring_setup/enter/register: refused with ENOSYS, as on a kernel without io_uring,
 *   which libuv and other runtimes already fall back from (Node 24 calls io_uring_setup for
 *   its file I/O and works on under this program). Its IORING_OP_SOCKET and
 *   IORING_OP_CONNECT make sockets without socket(2), past everything above.
 * - keyctl, add_key, request_key: refused with ENOSYS, as on a kernel without keys. The
 *   command would otherwise hold the app's session keyring (bwrap keeps it), and through
 *   pam_keyinit's link the user keyring, with possessor rights. Joining a fresh session
 *   keyring instead would need a helper of ours between bwrap and the command (bwrap has
 *   no option for it); the compilers, package managers and test runners commands run do
 *   not use keys, and a kernel built without them is a case they already handle.
 * Every other call of a known ABI is allowed. The x32 ABI (x86_64 numbers with bit 30)
 * is refused whole with ENOSYS, as a kernel without x32 does: its numbers would otherwise
 * need a table of their own. A call from an architecture the table does not know kills the
 * process: the kernel reports only the host's own ABIs, which are all listed.
 *
 * Written here as classic BPF, from the tables below, because no maintained npm package
 * builds seccomp programs (none in the npm registry's list is named for it; libseccomp
 * has no Node binding we can install here, and sandbox-runtime ships only a prebuilt
 * helper that needs a nested user namespace, which our `--disable-userns` refuses). The
 * tables decide; the assembler below only turns labels into BPF's relative jumps. bwrap
 * loads the program with `--seccomp FD`.
 */

/** The calls the program watches; every other call of a known ABI is allowed. */
type Call =
  | 'socket'
  | 'socketpair'
  | 'socketcall'
  | 'io_uring_setup'
  | 'io_uring_enter'
  | 'io_uring_register'
  | 'keyctl'
  | 'add_key'
  | 'request_key';

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;

const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

/** What one watched call gets: refused with an errno, or decided by its first argument (a family). */
type Decision =
  { refuse: number } | { families: readonly number[]; refused?: Readonly<Record<number, number>>; otherwise: number };

const DECISIONS: Readonly<Record<Call, Decision>> = {
  socket: { families: [AF_INET, AF_INET6, AF_NETLINK], refused: { [AF_UNIX]: EPERM }, otherwise: EAFNOSUPPORT },
  socketpair: { families: [AF_UNIX], otherwise: EAFNOSUPPORT },
  // i386's multiplexer hides socket()'s arguments behind a pointer: refused whole, as before.
  socketcall: { refuse: EPERM },
  io_uring_setup: { refuse: ENOSYS },
  io_uring_enter: { refuse: ENOSYS },
  io_uring_register: { refuse: ENOSYS },
  keyctl: { refuse: ENOSYS },
  add_key: { refuse: ENOSYS },
  request_key: { refuse: ENOSYS },
};

interface Abi {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  audit: number;
  /** Numbers at or above this are another ABI sharing the audit arch (x32): refused whole. */
  refuseFrom?: number;
  numbers: Readonly<Partial<Record<Call, number>>>;
}

const IO_URING = { io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427 } as const;
const X32_BIT = 0x40000000;

/** The ABIs a process may use on each host architecture Node reports (unistd_64.h, unistd_32.h, asm-generic, arm's table). */
const ABIS: Partial<Record<NodeJS.Architecture, readonly Abi[]>> = {
  x64: [
    {
      audit: 0xc000003e, // x86_64 (x32 shares it)
      refuseFrom: X32_BIT,
      numbers: { socket: 41, socketpair: 53, add_key: 248, request_key: 249, keyctl: 250, ...IO_URING },
    },
    {
      audit: 0x40000003, // i386 programs
      numbers: {
        socketcall: 102,
        add_key: 286,
        request_key: 287,
        keyctl: 288,
        socket: 359,
        socketpair: 360,
        ...IO_URING,
      },
    },
  ],
  arm64: [
    {
      audit: 0xc00000b7, // aarch64
      numbers: { socket: 198, socketpair: 199, add_key: 217, request_key: 218, keyctl: 219, ...IO_URING },
    },
    {
      audit: 0x40000028, // 32-bit ARM, EABI (which has no socketcall)
      numbers: { socket: 281, socketpair: 288, add_key: 309, request_key: 310, keyctl: 311, ...IO_URING },
    },
  ],
};

/** The program for this host, or null where we do not know its ABIs (the card then says so). */
export function syscallFilter(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const abis = ABIS[arch];
  if (!abis) return null;
  return encode(assemble([...abis.flatMap(abiBlock), ret(RET_KILL_PROCESS)]));
}

// ---- classic BPF, with labels resolved to the relative jumps the kernel wants ----

/** struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low half, little-endian: an int argument). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;

type Op =
  | { op: 'load'; offset: number }
  | { op: 'ret'; value: number }
  | { op: 'label'; name: string }
  /** Jumps to `then` when the accumulator is k (or, for 'jge', at least k), else to `else`; either absent is the next instruction. */
  | { op: 'jeq' | 'jge'; k: number; then?: string; else?: string };

const ret = (value: number): Op => ({ op: 'ret', value });
const refuse = (errno: number): Op => ret(RET_ERRNO | errno);

/**
 * One ABI: a wrong arch goes on to the next block; a watched call goes to its own rules;
 * anything else is allowed. Labels are prefixed by the block, so they stay unique.
 */
function abiBlock(abi: Abi, index: number): Op[] {
  const at = (name: string) => `abi${index}:${name}`;
  const calls = Object.entries(abi.numbers) as [Call, number][];
  const x32: Op[] = abi.refuseFrom === undefined ? [] : [{ op: 'jge', k: abi.refuseFrom, then: at('foreign') }];
  return [
    { op: 'load', offset: ARCH },
    { op: 'jeq', k: abi.audit, else: at('next') },
    { op: 'load', offset: NR },
    ...x32,
    ...calls.map(([call, nr]): Op => ({ op: 'jeq', k: nr, then: at(call) })),
    ret(RET_ALLOW),
    ...(abi.refuseFrom === undefined ? [] : [{ op: 'label', name: at('foreign') } as Op, refuse(ENOSYS)]),
    ...calls.flatMap(([call]): Op[] => [{ op: 'label', name: at(call) }, ...rules(DECISIONS[call], at(call))]),
    { op: 'label', name: at('next') },
  ];
}

/** One watched call's rules: a refusal, or its first argument (the family) against the lists. */
function rules(decision: Decision, prefix: string): Op[] {
  if ('refuse' in decision) return [refuse(decision.refuse)];
  const refused = Object.entries(decision.refused ?? {}).map(([family, errno]) => [Number(family), errno] as const);
  return [
    { op: 'load', offset: ARG0_LOW },
    ...decision.families.map((family): Op => ({ op: 'jeq', k: family, then: `${prefix}:allow` })),
    ...refused.map(([family]): Op => ({ op: 'jeq', k: family, then: `${prefix}:${family}` })),
    refuse(decision.otherwise),
    ...refused.flatMap(([family, errno]): Op[] => [{ op: 'label', name: `${prefix}:${family}` }, refuse(errno)]),
    { op: 'label', name: `${prefix}:allow` },
    ret(RET_ALLOW),
  ];
}

type Insn = [code: number, jt: number, jf: number, k: number];

/** Each jump's label to the offset from the next instruction, as BPF wants (forward only, at most 255). */
function assemble(ops: readonly Op[]): Insn[] {
  const labels = labelIndexes(ops);
  const insns: Insn[] = [];
  for (const op of ops) {
    const here = insns.length;
    const jump = (label: string | undefined) => {
      if (label === undefined) return 0;
      const target = labels.get(label);
      const offset = target === undefined ? -1 : target - here - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp program: jump to ${label} out of reach`);
      return offset;
    };
    if (op.op === 'load') insns.push([LD_W_ABS, 0, 0, op.offset]);
    else if (op.op === 'ret') insns.push([RET_K, 0, 0, op.value]);
    else if (op.op !== 'label') insns.push([op.op === 'jeq' ? JEQ_K : JGE_K, jump(op.then), jump(op.else), op.k]);
  }
  return insns;
}

/** Where each label stands: the index of the instruction after it. */
function labelIndexes(ops: readonly Op[]): Map<string, number> {
  const labels = new Map<string, number>();
  let pc = 0;
  for (const op of ops) {
    if (op.op !== 'label') pc++;
    else if (labels.has(op.name)) throw new Error(`seccomp program: label ${op.name} twice`);
    else labels.set(op.name, pc);
  }
  return labels;
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
