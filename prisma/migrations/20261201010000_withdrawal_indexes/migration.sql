-- Every game's commit withdraws that game's queued notices (reminders, undo notices, calls to
-- act) in its statement. Without these it read every notification ever sent (no index on the
-- game) and every waiting delivery of every game (a backlog while a receiver is down), on each
-- submission. The second index holds only the deliveries still waiting, which is all a
-- withdrawal touches. Prisma's schema cannot state its WHERE: it lives here alone.
-- CreateIndex
CREATE INDEX "notifications_game_id_kind_idx" ON "notifications"("game_id", "kind");
-- CreateIndex
CREATE INDEX "notification_deliveries_waiting_idx" ON "notification_deliveries"("notification_id") WHERE "status" IN ('pending', 'held');
