#!/usr/bin/env node
// `npm start`: generate the Prisma client, compile, and run the server. With no DATABASE_URL the
// server uses the embedded Postgres in DATA_DIR (./data); it applies migrations at start.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (args) =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  });

const steps = [
  ['scripts/prisma.mjs', 'generate'],
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
];
for (const step of steps) {
  const code = await run(step);
  if (code !== 0) process.exit(code);
}
process.exit(await run(['dist/src/main.js']));
