import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.FLEETGATE_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    // spec §9: static assets under /assets-static/.
    assetsDir: 'assets-static',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend },
      '/status': { target: backend, ws: true },
    },
  },
});
