import { APP_VERSION } from '@fleetgate/shared/constants';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Seconds since the epoch at build time: the update prompt compares against it (product §4). */
const builtAt = Math.floor(Date.now() / 1000);

/** Writes /version.json, which /versionWorker.js reports to open consoles. */
function versionFile(): Plugin {
  return {
    name: 'fleetgate-version-file',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ version: APP_VERSION, timestamp: builtAt }),
      });
    },
  };
}

const backend = process.env.FLEETGATE_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), versionFile()],
  define: { 'import.meta.env.VITE_BUILD_TIMESTAMP': JSON.stringify(String(builtAt)) },
  build: {
    outDir: 'dist',
    // product §9: static assets under /assets-static/.
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
