/**
 * The app's network proxy for confined commands (SPEC §9, DESIGN "Network through a
 * proxy"): one per app, in the app's process, holding a private 0700 folder of Unix
 * sockets. Each command with network gets a door of its own: one Unix socket that speaks
 * HTTP proxy and SOCKS5 both (told apart by the first byte: 5 opens every SOCKS5
 * greeting, and no HTTP request), enforcing that command's policy and nothing else, bound
 * into its sandbox by the bridge (bridge.ts). One socket means one bridge process inside:
 * socat's start is most of what network adds to a command's start. Closing the door stops it listening and ends the tunnels it opened,
 * so nothing a command started outlives it through the proxy.
 *
 * The proxy is not @anthropic-ai/sandbox-runtime's: that one listens on TCP ports of the
 * host's loopback with one process-wide filter and dials the name it checked, so a
 * domain that resolves to 127.0.0.1 reaches the host. Here each door has its own policy,
 * listens only on Unix sockets, and dials the address it checked (destination.ts).
 */
import { promises as fs } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import {
  decide,
  systemLookup,
  type Decision,
  type DestinationRules,
  type Lookup,
  type Redirect,
} from './destination.js';
import { domainListProblem, normalizeDomainList, type NetworkPolicy, type Way } from './domain-policy.js';
import type { DestinationGate } from './destination-gate.js';
import { createHttpProxy } from './http-proxy.js';
import type { OwnAddresses } from './own-addresses.js';
import type { Refusal } from './refusal.js';
import { createSocksProxy } from './socks5-proxy.js';
import { SocketSet } from './tunnel.js';

/** One command's way out. */
export interface ProxyDoor {
  /** The command's policy, as the door enforces it (a list normalized). */
  readonly allow: NetworkPolicy;
  /** Host path of the door's Unix socket (HTTP proxy and SOCKS5 both). */
  readonly socket: string;
  /** The hosts refused so far, each once, in order. */
  refused(): string[];
  /** The refusals themselves, with their lines (see refusalSummary). */
  refusals(): readonly Refusal[];
  /** Stops listening and ends every tunnel the door opened. */
  close(): Promise<void>;
}

export interface NetworkProxyOptions {
  /**
   * Where the private socket folder is made; default /tmp. It must be out of every
   * confined command's sight: its 0700 mode does not stop a command running as the same
   * user, and a Unix socket on disk is reachable from any network namespace. The host's
   * /tmp is covered by each sandbox's private /tmp, so that is the default (not
   * os.tmpdir(), which TMPDIR can point anywhere, and which can be long).
   */
  socketParent?: string;
  /** How a domain's addresses are found; default the system resolver. */
  lookup?: Lookup;
  /** Test hook: lands an allowed destination on a test server, past the local-address check. */
  connect?: Redirect;
  /** This machine's own addresses, refused; default its interfaces', read for each decision. */
  ownAddresses?: OwnAddresses;
}

/** A Unix socket path must fit sun_path: 108 bytes with its terminating NUL. */
const MAX_SOCKET_PATH = 107;
/** Connections one door holds open at once; each is two of the app's file descriptors. */
const MAX_CONNECTIONS_PER_DOOR = 512;
/** The first byte of every SOCKS5 greeting (RFC 1928); an HTTP request starts with a method's letter. */
const SOCKS5_VERSION = 0x05;
/** A client that says nothing by then is dropped (the SOCKS5 handshake keeps its own limit after). */
const FIRST_BYTE_TIMEOUT_MS = 10_000;
/** Enough refusals to say what happened; a command that keeps knocking does not grow the app's memory. */
const MAX_REFUSALS = 32;

export class NetworkProxy {
  private folder: Promise<string> | null = null;
  private readonly doors = new Set<Door>();
  private nextDoor = 0;
  private disposed = false;

  constructor(private readonly options: NetworkProxyOptions = {}) {}

  /** A door enforcing `allow` for one command. Throws on an invalid domain list. */
  async open(allow: NetworkPolicy): Promise<ProxyDoor> {
    if (this.disposed) throw new Error('the network proxy has been shut down');
    const problem = allow === true ? null : domainListProblem(allow);
    if (problem) throw new Error(`invalid network list: ${problem}`);
    const policy = allow === true ? true : normalizeDomainList(allow);
    const folder = await this.socketFolder();
    if (this.disposed) throw new Error('the network proxy has been shut down');
    const n = this.nextDoor++;
    const door = new Door(
      {
        policy,
        lookup: this.options.lookup ?? systemLookup,
        redirect: this.options.connect,
        ownAddresses: this.options.ownAddresses,
      },
      path.join(folder, `${n}.sock`),
      () => this.doors.delete(door),
    );
    this.doors.add(door);
    try {
      await door.listen();
    } catch (err) {
      await door.close();
      throw err;
    }
    return door;
  }

  /** Closes every door and removes the socket folder. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.doors].map((d) => d.close()));
    const folder = await this.folder?.catch(() => null);
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  }

  /** The number of doors open now (for the app's accounting and the bench). */
  get openDoors(): number {
    return this.doors.size;
  }

  /** The private folder holding the doors' sockets, made on first use: a place for the profile's hidden list. */
  socketFolder(): Promise<string> {
    this.folder ??= makeSocketFolder(this.options.socketParent);
    return this.folder;
  }
}

class Door implements ProxyDoor, DestinationGate {
  readonly sockets = new SocketSet();
  readonly allow: NetworkPolicy;
  private readonly front: net.Server;
  private readonly http: http.Server;
  private readonly socks: net.Server;
  private readonly refusalList: Refusal[] = [];
  private closing: Promise<void> | null = null;

  constructor(
    private readonly rules: DestinationRules,
    readonly socket: string,
    private readonly onClosed: () => void,
  ) {
    this.allow = rules.policy;
    this.http = createHttpProxy(this);
    this.socks = createSocksProxy(this);
    this.front = net.createServer({ allowHalfOpen: true }, (client) => this.route(client));
    this.front.maxConnections = MAX_CONNECTIONS_PER_DOOR;
  }

  listen(): Promise<void> {
    return listenOn(this.front, this.socket);
  }

  /** Hands a new connection to the SOCKS5 or the HTTP proxy by its first byte, which is put back first. */
  private route(client: net.Socket): void {
    this.sockets.add(client);
    client.on('error', () => client.destroy());
    client.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => client.destroy());
    client.once('data', (first: Buffer) => {
      client.pause();
      client.setTimeout(0);
      client.unshift(first);
      if (first[0] === SOCKS5_VERSION) {
        this.socks.emit('connection', client);
      } else {
        // HTTP ends a connection when its client does; only a SOCKS tunnel keeps a half-closed one.
        client.allowHalfOpen = false;
        this.http.emit('connection', client);
      }
      // Paused by hand, it stays paused when a handler listens: the byte put back is read now.
      client.resume();
    });
  }

  async decide(host: string, port: number, way: Way): Promise<Decision> {
    const decision = await decide(this.rules, host, port, way);
    if (this.closing) return { kind: 'unreachable', message: 'the command has ended' };
    if (decision.kind === 'refused') this.refuse(decision.refusal);
    return decision;
  }

  refuse(refusal: Refusal): void {
    const known = this.refusalList.some((r) => r.host === refusal.host && r.port === refusal.port);
    if (!known && this.refusalList.length < MAX_REFUSALS) this.refusalList.push(refusal);
  }

  refused(): string[] {
    return [...new Set(this.refusalList.map((r) => r.host))];
  }

  refusals(): readonly Refusal[] {
    return [...this.refusalList];
  }

  close(): Promise<void> {
    this.closing ??= this.shut();
    return this.closing;
  }

  private async shut(): Promise<void> {
    const stopped = new Promise<void>((resolve) => this.front.close(() => resolve()));
    this.sockets.destroyAll();
    await stopped;
    await fs.rm(this.socket, { force: true });
    this.onClosed();
  }
}

function listenOn(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A fresh 0700 folder, short enough that `<folder>/<n>.sock` fits a Unix socket path. */
async function makeSocketFolder(parent: string | undefined): Promise<string> {
  const base = parent ?? '/tmp';
  const folder = await fs.mkdtemp(path.join(base, 'gatehouse-net-'));
  await fs.chmod(folder, 0o700);
  if (Buffer.byteLength(path.join(folder, '4294967295.sock')) > MAX_SOCKET_PATH) {
    await fs.rm(folder, { recursive: true, force: true });
    throw new Error(`the network proxy's socket folder ${folder} is too long for a Unix socket path`);
  }
  return folder;
}
