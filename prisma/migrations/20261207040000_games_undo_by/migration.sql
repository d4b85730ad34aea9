-- The side whose undo proposal waits for an answer: the other sides' players are awaited too.
ALTER TABLE "games" ADD COLUMN "undo_by" TEXT;
