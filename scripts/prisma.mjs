#!/usr/bin/env node
// Runs the Prisma CLI with the environment that stops it from downloading native engines:
// we use the WebAssembly schema engine (prisma.config.ts) and the Rust-free client, so the
// binaries it would fetch are never needed. Usage: node scripts/prisma.mjs <prisma args...>
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
export const offlineEnv = {
  PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
  PRISMA_QUERY_ENGINE_LIBRARY: '/dev/null',
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};

const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ...offlineEnv },
});
process.exit(result.status ?? 1);
