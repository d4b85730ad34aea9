-- API rate limits counted across server instances: each instance adds its own counts per key
-- and fixed window, and reads back the totals (src/api/http/rate-limiter.ts).
-- CreateTable
CREATE TABLE "api_rate_counters" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "window_seconds" INTEGER NOT NULL,
    "hits" INTEGER NOT NULL,

    CONSTRAINT "api_rate_counters_pkey" PRIMARY KEY ("key","window_start","window_seconds")
);
