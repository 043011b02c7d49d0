import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { appChunks } from './scripts/chunks';
import { firstPaintFirst } from './scripts/first-paint-html';

const chunks = appChunks();

// The API server listens on 3001 during `npm run dev`; Vite serves the web app on 3000 and forwards /api.
export default defineConfig({
  plugins: [react(), tailwindcss(), chunks.plugin, firstPaintFirst()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    reportCompressedSize: true,
    rollupOptions: {
      // landing.html is the pre-rendered landing page's entry (ADR 004, scripts/prerender.mjs).
      input: { index: 'index.html', landing: 'landing.html' },
      output: { codeSplitting: chunks.codeSplitting },
    },
  },
  server: {
    port: 3000,
    proxy: {
      '/api': 'http://127.0.0.1:3001',
      '/uploads': 'http://127.0.0.1:3001',
      '/checkout': 'http://127.0.0.1:3001',
    },
  },
});
