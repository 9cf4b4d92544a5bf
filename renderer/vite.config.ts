import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const INITIAL = ['$initial' as const];

/**
 * The first load in three files: React, the other libraries the first paint needs, and the
 * app, each well under Vite's 500 kB warning. Only modules of the first load are grouped
 * ($initial), so the editor, the terminal and the highlighter stay lazy chunks of their
 * own, fetched when first shown.
 */
const firstLoadChunks = {
  groups: [
    { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, tags: INITIAL, priority: 2 },
    { name: 'libraries', test: /[\\/]node_modules[\\/]/, tags: INITIAL, priority: 1 },
  ],
};

// The renderer bundle, served by the web host (electron/web) and loaded by the Electron window.
// Relative asset URLs so the same build works over http:// and from a file in the packaged app.
export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', 'out', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: { output: { codeSplitting: firstLoadChunks } },
  },
});
