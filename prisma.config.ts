// Prisma CLI configuration. Migrations run through the WebAssembly schema engine that ships
// inside the `prisma` package over a pg driver adapter, so nothing is downloaded from
// Prisma's servers (see README: Database, and scripts/prisma.mjs).
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('DATABASE_URL must be set for prisma migrate');
    return new PrismaPg({ connectionString, max: 1 });
  },
});
