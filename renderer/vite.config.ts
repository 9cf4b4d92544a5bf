import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

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
  },
});
