-- jsonb stores objects with their keys reordered (shorter first, then bytewise), so a state or
-- event read back iterated its records (the units of a game, say) in another order than the
-- process that wrote it, and the rules engine walks records in order. json keeps the text as
-- written. Rows written before keep the order jsonb gave them.
-- AlterTable
ALTER TABLE "events" ALTER COLUMN "data" SET DATA TYPE JSON USING "data"::json;
-- AlterTable
ALTER TABLE "events" ALTER COLUMN "meta" SET DATA TYPE JSON USING "meta"::json;
-- AlterTable
ALTER TABLE "snapshots" ALTER COLUMN "state" SET DATA TYPE JSON USING "state"::json;
