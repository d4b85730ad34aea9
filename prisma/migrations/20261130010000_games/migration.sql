-- CreateTable
CREATE TABLE "players" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" TEXT NOT NULL,
    "scenario_id" TEXT NOT NULL,
    "scenario_version" TEXT NOT NULL,
    "system" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "acting" JSONB NOT NULL,
    "mode" TEXT NOT NULL,
    "deadline_at" TIMESTAMPTZ(3),
    "options" JSONB NOT NULL,
    "seed_commitment" TEXT NOT NULL,
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_secrets" (
    "game_id" TEXT NOT NULL,
    "seed" TEXT NOT NULL,

    CONSTRAINT "game_secrets_pkey" PRIMARY KEY ("game_id")
);

-- CreateTable
CREATE TABLE "seats" (
    "game_id" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "player_id" TEXT,
    "claimed_at" TIMESTAMPTZ(3),

    CONSTRAINT "seats_pkey" PRIMARY KEY ("game_id","side")
);

-- CreateTable
CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "token_hash" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "used_at" TIMESTAMPTZ(3),
    "used_by" TEXT,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduled_jobs" (
    "id" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "game_version" INTEGER NOT NULL,
    "side" TEXT,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "scheduled_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "players_email_key" ON "players"("email");

-- CreateIndex
CREATE INDEX "games_status_idx" ON "games"("status");

-- CreateIndex
CREATE INDEX "seats_player_id_idx" ON "seats"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_game_id_idx" ON "invitations"("game_id");

-- CreateIndex
CREATE INDEX "invitations_kind_used_at_idx" ON "invitations"("kind", "used_at");

-- CreateIndex
CREATE INDEX "scheduled_jobs_status_due_at_idx" ON "scheduled_jobs"("status", "due_at");

-- CreateIndex
CREATE INDEX "scheduled_jobs_game_id_status_idx" ON "scheduled_jobs"("game_id", "status");

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

