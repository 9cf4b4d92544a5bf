/**
 * electron-vite builds the three parts into out/: main (ESM, with the card diff worker as
 * a second entry beside it, since CardDiffer loads ./diff-worker.js next to its own
 * chunk), the preload (one CommonJS file with everything inlined: a sandboxed preload can
 * require only 'electron'), and the renderer (the same settings as renderer/vite.config.ts).
 * Dependencies stay external in main, so node-pty and ripgrep load from node_modules, or
 * from app.asar.unpacked in a package.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = path.dirname(fileURLToPath(import.meta.url));
// A test builds into a temp folder, so it never empties the out/ a running host serves.
const out = process.env.GATEHOUSE_BUILD_OUT ?? path.join(root, 'out');

export default defineConfig({
  main: {
    build: {
      outDir: path.join(out, 'main'),
      rollupOptions: {
        input: {
          index: path.join(root, 'electron', 'main', 'index.ts'),
          'diff-worker': path.join(root, 'electron', 'core', 'diff', 'diff-worker.ts'),
        },
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          // Shared chunks beside the entries: import.meta.url then points at out/main/ for all.
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
  },
  preload: {
    build: {
      outDir: path.join(out, 'preload'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: path.join(root, 'electron', 'preload', 'index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: path.join(root, 'renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: path.join(out, 'renderer'),
      emptyOutDir: true,
      sourcemap: true,
      rollupOptions: { input: path.join(root, 'renderer', 'index.html') },
    },
  },
});
