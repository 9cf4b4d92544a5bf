/**
 * The seccomp program's decisions, read by running it through a classic-BPF interpreter
 * (seccomp-bpf.ts) on each call that matters, per ABI. The numbers are written out here
 * from the kernel's tables, not taken from the program's own table, so a wrong entry there
 * fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { syscallFilter } from '../../../../../electron/core/sandbox/syscall-filter.js';
import { BPF_MAXINSNS, runSeccomp, type Verdict } from './seccomp-bpf.js';

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_I386 = 0x40000003;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const AUDIT_ARCH_ARM = 0x40000028;
const X32 = 0x40000000;

const AF = { UNSPEC: 0, UNIX: 1, INET: 2, INET6: 10, NETLINK: 16, PACKET: 17, BLUETOOTH: 31, ALG: 38, VSOCK: 40 };
const EPERM = { errno: 1 };
const ENOSYS = { errno: 38 };
const EAFNOSUPPORT = { errno: 97 };

/** The calls the program decides, by their numbers in one ABI. */
interface Numbers {
  socket: number;
  socketpair: number;
  io_uring: [number, number, number];
  keys: [add_key: number, request_key: number, keyctl: number];
  /** Everyday calls that must stay allowed: read, write, an open, execve, clone, getpid. */
  everyday: number[];
}

const X86_64: Numbers = {
  socket: 41,
  socketpair: 53,
  io_uring: [425, 426, 427],
  keys: [248, 249, 250],
  everyday: [0, 1, 257, 59, 56, 39],
};
const I386: Numbers = {
  socket: 359,
  socketpair: 360,
  io_uring: [425, 426, 427],
  keys: [286, 287, 288],
  everyday: [3, 4, 295, 11, 120, 20],
};
const AARCH64: Numbers = {
  socket: 198,
  socketpair: 199,
  io_uring: [425, 426, 427],
  keys: [217, 218, 219],
  everyday: [63, 64, 56, 221, 220, 172],
};
const ARM: Numbers = {
  socket: 281,
  socketpair: 288,
  io_uring: [425, 426, 427],
  keys: [309, 310, 311],
  everyday: [3, 4, 322, 11, 120, 20],
};

function decides(program: Buffer, arch: number, nr: number, arg0 = 0n): Verdict {
  return runSeccomp(program, { nr, arch, args: [arg0, 0n, 0n, 0n, 0n, 0n] });
}

/** The same decisions in every ABI the program covers. */
function abiDecisions(program: Buffer, arch: number, n: Numbers): void {
  it('socket(): only AF_INET, AF_INET6 and AF_NETLINK; AF_UNIX gets EPERM, every other family EAFNOSUPPORT', () => {
    for (const family of [AF.INET, AF.INET6, AF.NETLINK])
      expect(decides(program, arch, n.socket, BigInt(family))).toBe('allow');
    expect(decides(program, arch, n.socket, BigInt(AF.UNIX))).toEqual(EPERM);
    for (const family of [AF.UNSPEC, AF.PACKET, AF.BLUETOOTH, AF.ALG, AF.VSOCK, 45, 0xffff, 0xffffffff]) {
      expect(decides(program, arch, n.socket, BigInt(family)), `family ${family}`).toEqual(EAFNOSUPPORT);
    }
  });

  it("socket() is decided on the family's int, as the kernel reads it: the upper half of the register changes nothing", () => {
    expect(decides(program, arch, n.socket, (1n << 32n) | BigInt(AF.UNIX))).toEqual(EPERM);
    expect(decides(program, arch, n.socket, (7n << 32n) | BigInt(AF.VSOCK))).toEqual(EAFNOSUPPORT);
    expect(decides(program, arch, n.socket, (1n << 32n) | BigInt(AF.INET))).toBe('allow');
  });

  it('socketpair(): only AF_UNIX (two ends joined to each other, nothing of the host)', () => {
    expect(decides(program, arch, n.socketpair, BigInt(AF.UNIX))).toBe('allow');
    for (const family of [AF.INET, AF.INET6, AF.NETLINK, AF.VSOCK, AF.PACKET]) {
      expect(decides(program, arch, n.socketpair, BigInt(family)), `family ${family}`).toEqual(EAFNOSUPPORT);
    }
  });

  it('io_uring_setup, io_uring_enter and io_uring_register get ENOSYS, as on a kernel without io_uring', () => {
    for (const nr of n.io_uring) expect(decides(program, arch, nr)).toEqual(ENOSYS);
  });

  it('add_key, request_key and keyctl get ENOSYS, as on a kernel without keys', () => {
    for (const nr of n.keys) expect(decides(program, arch, nr)).toEqual(ENOSYS);
  });

  it('allows everyday calls, whatever their arguments', () => {
    for (const nr of n.everyday) {
      expect(decides(program, arch, nr, BigInt(AF.UNIX)), `call ${nr}`).toBe('allow');
      expect(decides(program, arch, nr, BigInt(AF.VSOCK)), `call ${nr}`).toBe('allow');
    }
  });
}

describe('the seccomp program on x86_64 hosts', () => {
  const program = syscallFilter('x64') as Buffer;

  it('is a program the kernel takes: whole instructions, within its length limit, ending in a return', () => {
    for (const each of [program, syscallFilter('arm64') as Buffer]) {
      expect(each.length % 8).toBe(0);
      expect(each.length / 8).toBeLessThanOrEqual(BPF_MAXINSNS);
      expect(each.readUInt16LE(each.length - 8)).toBe(0x06); // BPF_RET | BPF_K
    }
  });

  describe('x86_64 calls', () => abiDecisions(program, AUDIT_ARCH_X86_64, X86_64));
  describe('i386 calls (32-bit programs)', () => {
    abiDecisions(program, AUDIT_ARCH_I386, I386);
    it("refuses socketcall(2) whole: it hides socket()'s family behind a pointer", () => {
      expect(decides(program, AUDIT_ARCH_I386, 102, 1n /* SYS_SOCKET */)).toEqual(EPERM);
    });
  });

  it('refuses the x32 ABI whole with ENOSYS, as a kernel without x32 does, so its numbers need no table', () => {
    for (const nr of [X86_64.socket, X86_64.socketpair, ...X86_64.io_uring, ...X86_64.keys, ...X86_64.everyday]) {
      expect(decides(program, AUDIT_ARCH_X86_64, X32 + nr, BigInt(AF.INET)), `x32 call ${nr}`).toEqual(ENOSYS);
    }
    // x32's own numbers (512 and up, e.g. its recvmsg) and anything above the bit alike.
    expect(decides(program, AUDIT_ARCH_X86_64, X32 + 519)).toEqual(ENOSYS);
    expect(decides(program, AUDIT_ARCH_X86_64, 0xffffffff)).toEqual(ENOSYS);
  });

  it("kills a call from an architecture it does not know: the kernel reports only the host's own", () => {
    expect(decides(program, AUDIT_ARCH_AARCH64, X86_64.everyday[0] ?? 0)).toBe('kill');
    expect(decides(program, 0, 0)).toBe('kill');
  });
});

describe('the seccomp program on arm64 hosts', () => {
  const program = syscallFilter('arm64') as Buffer;
  describe('aarch64 calls', () => abiDecisions(program, AUDIT_ARCH_AARCH64, AARCH64));
  describe('32-bit ARM calls', () => abiDecisions(program, AUDIT_ARCH_ARM, ARM));
  it('kills a call from an architecture it does not know', () => {
    expect(decides(program, AUDIT_ARCH_X86_64, 0)).toBe('kill');
  });
});

it('has no program for a host whose ABIs it does not know (the card then says so)', () => {
  expect(syscallFilter('riscv64')).toBeNull();
  expect(syscallFilter('ia32')).toBeNull();
});

// The x86_64 numbers above, checked once against the kernel headers where they are installed.
const HEADERS = '/usr/include/x86_64-linux-gnu/asm/unistd_64.h';
it.skipIf(!existsSync(HEADERS))("writes x86_64's numbers as the kernel headers do", () => {
  const headers = readFileSync(HEADERS, 'utf8');
  const nr = (name: string) => Number(new RegExp(`#define __NR_${name} (\\d+)`).exec(headers)?.[1]);
  expect([nr('socket'), nr('socketpair')]).toEqual([X86_64.socket, X86_64.socketpair]);
  expect([nr('io_uring_setup'), nr('io_uring_enter'), nr('io_uring_register')]).toEqual(X86_64.io_uring);
  expect([nr('add_key'), nr('request_key'), nr('keyctl')]).toEqual(X86_64.keys);
});
