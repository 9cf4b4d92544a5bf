import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// The layering of DESIGN.md, enforced: imports only go down.
const noElectron = {
  name: 'electron',
  message: 'electron/core runs in plain Node: reach the OS shell through an interface the core defines.',
};

const corePatterns = [
  { group: ['electron/*'], message: 'electron/core never imports electron.' },
  {
    group: ['**/main/**', '**/preload/**', '**/web/**', '**/renderer/**'],
    message: 'electron/core sits below main, preload, web and renderer.',
  },
];

/** A core room's block: the core's patterns, plus each room it never imports and the rule saying why. */
function coreRoomNever(room, never) {
  const patterns = never.map(([other, message]) => ({ group: [`**/${other}/**`], message }));
  return {
    files: [`electron/core/${room}/**`],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [...corePatterns, ...patterns] }] },
  };
}

// The renderer talks to the app only through shared/contract.ts.
const rendererPaths = [{ name: 'electron', message: 'The renderer talks only through the contract.' }];
const rendererPatterns = [
  {
    group: ['**/electron/**', 'node:*'],
    message: 'The renderer never imports electron/ or Node: use shared/contract.ts.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'coverage/**', 'renderer/dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['electron/core/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: corePatterns }] },
  },
  // The core's "never" rules between rooms (DESIGN.md, issue 32): each room's block keeps
  // the core's own patterns, since a later block replaces the rule's options.
  coreRoomNever('gate', [['mcp', 'The gate names no tool: gate/ never imports mcp/ (a planner plans for it).']]),
  coreRoomNever('context', [
    ['tools', 'The context names no tool room: context/ never imports tools/ (tool-shape/ says what a result holds).'],
    ['runner', 'The runner asks the context, never the reverse: context/ never imports runner/.'],
  ]),
  coreRoomNever('sandbox', [
    ['tools', 'The sandbox knows processes, not tools: sandbox/ never imports tools/.'],
    ['process', 'The sandbox plans, the process room runs: sandbox/ never imports process/.'],
  ]),
  coreRoomNever('tools', [['gate', 'Tools plan, the gate decides: tools/ never imports gate/.']]),
  coreRoomNever('chat', [['context', 'Chat is transport: chat/ never imports context/.']]),
  coreRoomNever('log', [['gate', 'The log is the bottom: log/ never imports gate/.']]),
  coreRoomNever('files', [['log', 'files/ sits below the log: log/ imports files/, never the reverse.']]),
  {
    files: ['renderer/src/**', 'test/unit/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { paths: rendererPaths, patterns: rendererPatterns }],
    },
  },
  {
    // A later block replaces the rule's options, so the renderer's own come along.
    files: ['renderer/src/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: rendererPaths,
          patterns: [
            ...rendererPatterns,
            { group: ['**/components/**'], message: 'The store never imports a component (UI.md, Renderer layout).' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared/ is pure.' }],
          patterns: [
            {
              group: ['**/electron/**', '**/renderer/**', 'node:*'],
              message: 'shared/ imports nothing from the other layers, nor Node.',
            },
          ],
        },
      ],
    },
  },
);
