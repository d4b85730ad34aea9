-- Each side's current standing reaction orders, outside the event log (see schema.prisma).
CREATE TABLE "standing_orders" (
    "game_id" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "orders" JSON NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "standing_orders_pkey" PRIMARY KEY ("game_id","side")
);
