-- myGames lists the games a player organises without a seat by their creator.
CREATE INDEX "games_created_by_idx" ON "games"("created_by");
