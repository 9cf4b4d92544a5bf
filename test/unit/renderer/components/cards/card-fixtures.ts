/** Realistic cards for the card tests and the look harness. */
import { commandGrant, describeGrant, type CardBody, type Grant } from '../../../../../shared/cards';
import type { CardEvent, QuestionEvent } from '../../../../../shared/reducer';

export const WORKSPACE = '/home/me/src/project';
export const SESSION = 's1';

let seq = 10;

/** The grant a card for this body offers, as the core derives it from the plan (gate/classify.ts). */
export function grantOfBody(body: CardBody): Grant {
  switch (body.kind) {
    case 'write':
      return { kind: 'write', path: body.path };
    case 'read':
      return { kind: 'read', tool: body.tool, path: body.path };
    case 'command':
      return commandGrant(body.argv, body.cwd, {
        network: body.network ?? false,
        unconfined: body.sandbox ? !body.sandbox.confined : body.unconfined === true,
        git: body.git === true,
      });
    case 'mcp':
      return { kind: 'mcp', tool: body.tool, args: body.argsCanonical, fingerprint: body.fingerprint };
    case 'mcp_server':
      return { kind: 'mcp_server', server: body.server, source: body.source, fingerprint: body.fingerprint };
    case 'agent_start':
      return { kind: 'agent_start', agent: body.agent, fingerprint: body.fingerprint };
    case 'agent_ask':
      return { kind: 'agent_ask', agent: body.agent, toolKind: body.toolKind, title: body.title };
    case 'place_apply':
      return { kind: 'place_apply', origin: body.origin };
  }
}

export function cardOf(body: CardBody, overrides: Partial<CardEvent> = {}): CardEvent {
  const grant = grantOfBody(body);
  seq += 1;
  return {
    type: 'card',
    seq,
    ts: '2026-12-03T04:00:00.000Z',
    turnId: 't1',
    toolCallId: `call-${seq}`,
    cardId: `card-${seq}`,
    body,
    grant,
    scope: describeGrant(grant),
    ...overrides,
  };
}

export const SMALL_DIFF = [
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,4 +1,4 @@',
  ' import { run } from "./run";',
  '-const limit = 10;',
  '+const limit = 20;',
  ' ',
  ' run(limit);',
  '',
].join('\n');

export function writeBody(overrides: Partial<Extract<CardBody, { kind: 'write' }>> = {}): CardBody {
  return {
    kind: 'write',
    tool: 'write_file',
    path: `${WORKSPACE}/src/app.ts`,
    inside: true,
    creates: false,
    diff: SMALL_DIFF,
    diffTruncated: false,
    diffBytes: SMALL_DIFF.length,
    proposalBytes: 1126,
    beforeBytes: 1024,
    digest: 'a'.repeat(64),
    proposalBlob: 'b'.repeat(64),
    ...overrides,
  };
}

export function commandBody(argv: string[], overrides: Partial<Extract<CardBody, { kind: 'command' }>> = {}): CardBody {
  return { kind: 'command', tool: 'run', argv, cwd: WORKSPACE, ...overrides };
}

export function readBody(overrides: Partial<Extract<CardBody, { kind: 'read' }>> = {}): CardBody {
  return { kind: 'read', tool: 'read_file', path: '/etc/hosts', ...overrides };
}

/** A call to github's create_issue, with the arguments formatted as the core formats them. */
export function mcpBody(overrides: Partial<Extract<CardBody, { kind: 'mcp' }>> = {}): CardBody {
  const args = { owner: 'me', repo: 'project', title: 'Fix the tests', labels: ['bug'] };
  return {
    kind: 'mcp',
    tool: 'mcp__github__create_issue',
    server: 'github',
    name: 'create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: {
      type: 'object',
      properties: { owner: { type: 'string' }, repo: { type: 'string' }, title: { type: 'string' } },
      required: ['owner', 'repo', 'title'],
    },
    argsJson: JSON.stringify(args, null, 2),
    argsCanonical: JSON.stringify({ labels: ['bug'], owner: 'me', repo: 'project', title: 'Fix the tests' }),
    fingerprint: 'f'.repeat(64),
    ...overrides,
  };
}

/** A workspace's stdio server about to start, confined with network. */
export function mcpServerBody(overrides: Partial<Extract<CardBody, { kind: 'mcp_server' }>> = {}): CardBody {
  return {
    kind: 'mcp_server',
    server: 'files',
    source: `${WORKSPACE}/.mcp.json`,
    argv: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '.'],
    cwd: WORKSPACE,
    envNames: ['API_TOKEN', 'LOG_LEVEL'],
    sandbox: {
      confined: true,
      network: true,
      writable: [WORKSPACE],
      readOnly: [`${WORKSPACE}/.git/hooks`],
      hidden: ['/home/me/.ssh'],
    },
    fingerprint: 'e'.repeat(64),
    ...overrides,
  };
}

/** A unified diff of a `total`-line file with every `changedEvery`th line changed, like the bench's. */
export function bigDiff(changedEvery: number, total: number, comment = ''): string {
  const out = ['--- a/src/big.ts', '+++ b/src/big.ts', `@@ -1,${total} +1,${total} @@`];
  const tail = comment ? ` // ${comment}` : '';
  for (let i = 1; i <= total; i++) {
    if (i % changedEvery === 0)
      out.push(`-export const value${i} = ${i};${tail}`, `+export const value${i} = ${i * 2};${tail}`);
    else out.push(` export const value${i} = ${i};${tail}`);
  }
  return out.join('\n') + '\n';
}

export function questionOf(question: string, options?: string[]): QuestionEvent {
  seq += 1;
  return {
    type: 'question',
    seq,
    ts: '2026-12-03T04:00:00.000Z',
    turnId: 't1',
    toolCallId: `call-${seq}`,
    questionId: `q-${seq}`,
    question,
    ...(options ? { options } : {}),
  };
}

/** Claude Code about to start in its jail, as agent-start-card.ts would build it. */
export function agentStartBody(overrides: Partial<Extract<CardBody, { kind: 'agent_start' }>> = {}): CardBody {
  return {
    kind: 'agent_start',
    agent: 'claude-code',
    label: 'Claude Code',
    version: '0.10.0',
    argv: [
      '/usr/bin/node',
      '/home/me/.local/share/gatehouse/agents/claude-code/pkg/node_modules/@zed-industries/claude-code-acp/dist/index.js',
    ],
    readOnly: [WORKSPACE, '/usr', '/etc', '/home/me/.local/share/gatehouse/agents/claude-code/pkg'],
    writable: ['/home/me/.local/share/gatehouse/agents/claude-code/home'],
    domains: ['api.anthropic.com', 'statsig.anthropic.com'],
    envNames: ['ANTHROPIC_API_KEY', 'PATH', 'LANG'],
    fingerprint: 'f'.repeat(64),
    ...overrides,
  };
}

/** Claude Code asking, in its own words, to fetch a page. */
export function agentAskBody(overrides: Partial<Extract<CardBody, { kind: 'agent_ask' }>> = {}): CardBody {
  return {
    kind: 'agent_ask',
    agent: 'claude-code',
    label: 'Claude Code',
    title: 'Fetch https://nodejs.org/api/fs.html',
    toolKind: 'fetch',
    detail: 'Read the fs API page to check writeFile’s flags.',
    options: [
      { optionId: 'allow', name: 'Yes', kind: 'allow_once' },
      { optionId: 'always', name: 'Yes, and don’t ask again for this URL', kind: 'allow_always' },
      { optionId: 'reject', name: 'No, tell Claude what to do differently', kind: 'reject_once' },
    ],
    ...overrides,
  };
}

/** A git command as the places room shows it: its quiet settings first (person-git.ts). */
const git = (...args: string[]): string[] => [
  'git',
  ...['commit.gpgSign=false', 'gpg.program=/bin/false', 'submodule.recurse=false', 'gc.auto=0'].flatMap((c) => [
    '-c',
    c,
  ]),
  ...args,
];

/** The model proposing to apply its place's change as a commit on main: four files, one in conflict. */
export function placeApplyBody(overrides: Partial<Extract<CardBody, { kind: 'place_apply' }>> = {}): CardBody {
  const origin = WORKSPACE;
  return {
    kind: 'place_apply',
    as: 'commit',
    origin,
    place: '/home/me/.config/Gatehouse/places/s1/project',
    files: [
      { path: 'src/parser.ts', change: 'modified', status: 'ready' },
      { path: 'src/parser.test.ts', change: 'added', status: 'ready' },
      { path: 'README.md', change: 'modified', status: 'conflict' },
      { path: 'src/old-lexer.ts', change: 'deleted', status: 'ready' },
    ],
    commit: {
      branch: 'main',
      argv: [
        git('read-tree', '<HEAD>'),
        git('hash-object', '-w', '--no-filters', '--stdin-paths'),
        git('update-index', '-z', '--index-info'),
        git('write-tree'),
        git('commit-tree', '--no-gpg-sign', '<tree>', '-p', '<HEAD>', '-m', '<message>'),
        git('update-ref', 'refs/heads/main', '<commit>', '<HEAD>'),
        git('update-index', '-z', '--index-info'),
      ],
    },
    message: 'Parse numbers with exponents\n\nAdds tests for 1e3 and 2.5E-2.',
    fingerprint: 'f'.repeat(64),
    ...overrides,
  };
}
