// `npm run dev`: the server with reload on change, and Vite's dev server for the console
// (hot module replacement), which proxies /api and /status to the server.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/server.ts'], {
    stdio: 'inherit',
    env: { NODE_ENV: 'development', ...process.env },
  }),
  spawn('npx', ['vite', '--host', '--configLoader', 'runner'], { stdio: 'inherit', cwd: 'apps/web' }),
];

console.log('\n  Console with hot reload: http://localhost:5173  (API on http://localhost:8080)\n');

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
