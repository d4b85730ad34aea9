-- CreateTable
CREATE TABLE "notification_preferences" (
    "player_id" TEXT NOT NULL,
    "game_id" TEXT NOT NULL DEFAULT '',
    "email_enabled" BOOLEAN,
    "webhook_enabled" BOOLEAN,
    "discord_enabled" BOOLEAN,
    "quiet_hours_enabled" BOOLEAN,
    "quiet_start" INTEGER,
    "quiet_end" INTEGER,
    "reminder_lead_minutes" INTEGER,
    "digest" BOOLEAN,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("player_id","game_id")
);

-- CreateTable
CREATE TABLE "notification_endpoints" (
    "id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT,
    "previous_secret" TEXT,
    "previous_secret_until" TIMESTAMPTZ(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "game_id" TEXT,
    "kind" TEXT NOT NULL,
    "side" TEXT,
    "game_version" INTEGER,
    "content" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_deliveries" (
    "id" TEXT NOT NULL,
    "notification_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "endpoint_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "claim_token" TEXT,
    "first_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_status" INTEGER,
    "digest_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_endpoints_player_id_idx" ON "notification_endpoints"("player_id");

-- CreateIndex
CREATE INDEX "notifications_player_id_created_at_idx" ON "notifications"("player_id", "created_at");

-- CreateIndex
CREATE INDEX "notification_deliveries_status_not_before_idx" ON "notification_deliveries"("status", "not_before");

-- CreateIndex
CREATE INDEX "notification_deliveries_player_id_created_at_idx" ON "notification_deliveries"("player_id", "created_at");

-- CreateIndex
CREATE INDEX "notification_deliveries_digest_id_idx" ON "notification_deliveries"("digest_id");

-- AddForeignKey
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "notification_endpoints"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Written by hand (not in schema.prisma, whose Player model this migration does not edit):
-- a player's notification rows go when the player goes.
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notification_endpoints" ADD CONSTRAINT "notification_endpoints_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
