/**
 * The "agent" of agent-jail.test.ts: run with node INSIDE the jail, it tries each of the
 * jail's promises and prints what happened as one JSON line on stdout. Its one argument is
 * a JSON object of the places and ports to try.
 */
import fs from 'node:fs';
import net from 'node:net';

const cfg = JSON.parse(process.argv[2]);

function attempt(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    return { ok: false, code: err.code || String(err.message) };
  }
}

/** Sends `request` to 127.0.0.1:port and resolves with what came back (or the error's code). */
function exchange(port, request) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ ok: false, code: 'TIMEOUT', got });
    }, 20000);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (d) => (got += d.toString('utf8')));
    socket.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, code: err.code });
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ok: true, got });
    });
  });
}

/** path → content of every regular file under `dir` (a small HOME). */
function filesUnder(dir, out = {}) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${entry.name}`;
    if (entry.isDirectory()) filesUnder(p, out);
    else if (entry.isFile()) out[p] = fs.readFileSync(p, 'utf8').slice(0, 65536);
  }
  return out;
}

const get = (host, p) => `GET http://${host}${p} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

(async () => {
  process.stderr.write(`starting with key ${process.env[cfg.keyVariable]}\n`);
  const out = {
    uid: process.getuid(),
    gid: process.getgid(),
    home: process.env.HOME,
    cwd: process.cwd(),
    workspaceWrite: attempt(() => fs.writeFileSync(`${cfg.workspace}/agent-wrote.txt`, 'x')),
    workspaceRead: attempt(() => fs.readFileSync(`${cfg.workspace}/README.md`, 'utf8')),
    homeWrite: attempt(() => fs.writeFileSync(`${process.env.HOME}/probe.txt`, 'from inside')),
    personSsh: attempt(() => fs.readdirSync(`${cfg.personHome}/.ssh`)),
    personHome: attempt(() => fs.readdirSync(cfg.personHome)),
    dataDir: attempt(() => fs.readdirSync(cfg.dataDir)),
    dataKeys: attempt(() => fs.readFileSync(`${cfg.dataDir}/keys.json`, 'utf8')),
    agentsFolder: attempt(() => fs.readdirSync(`${cfg.dataDir}/agents`)),
    ownFolder: attempt(() => fs.readdirSync(`${cfg.dataDir}/agents/${cfg.id}`)),
    pkgWrite: attempt(() => fs.writeFileSync(`${cfg.pkg}/agent-wrote.txt`, 'x')),
    hostTmpMarker: fs.existsSync(cfg.tmpMarker),
    tmpWrite: attempt(() => fs.writeFileSync('/tmp/agent-tmp.txt', 'x')),
    env: Object.keys(process.env).sort(),
    // Every value and every file of its HOME, for a test to search for a secret it must not hold.
    envAll: { ...process.env },
    homeFiles: filesUnder(process.env.HOME),
    envValues: {
      key: process.env[cfg.keyVariable],
      base: process.env[cfg.baseUrlVariable],
      search: process.env.ENABLE_TOOL_SEARCH,
      traffic: process.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC,
    },
    seccomp: /Seccomp:\s*(\d)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1],
    unixSocket: await new Promise((resolve) => {
      // The gate's socket is shown inside for socat alone: the agent itself opens no Unix socket.
      const socket = net.connect('/tmp/.gatehouse-net/gate.sock');
      socket.on('connect', () => {
        socket.destroy();
        resolve({ ok: true });
      });
      socket.on('error', (err) => resolve({ ok: false, code: err.code }));
    }),
    loopback: await exchange(cfg.hostPort, 'hello'),
    listed: await exchange(3128, get(cfg.listed, '/listed')),
    unlisted: await exchange(3128, `CONNECT ${cfg.unlisted}:443 HTTP/1.1\r\nHost: ${cfg.unlisted}:443\r\n\r\n`),
    gate: await exchange(cfg.gatePort, 'GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    model: await exchange(cfg.modelPort, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
})();
