-- A notification endpoint may be scoped to one game (null: all games of the player).
-- AlterTable
ALTER TABLE "notification_endpoints" ADD COLUMN "game_id" TEXT;
