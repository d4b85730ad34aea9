
-- CreateTable
CREATE TABLE "events" (
    "position" BIGSERIAL NOT NULL,
    "game_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "meta" JSONB NOT NULL,
    "transaction_id" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("position")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "key" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "from_version" INTEGER NOT NULL,
    "to_version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "game_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("game_id","version")
);

-- CreateIndex
CREATE INDEX "events_global_order_idx" ON "events"("transaction_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "events_game_version_key" ON "events"("game_id", "version");


-- The log is append-only: history is corrected with compensating events, never edited.
ALTER TABLE "events" ADD CONSTRAINT "events_version_positive" CHECK ("version" > 0);
-- The migration runner splits scripts at every semicolon, even inside quotes, so the one
-- semicolon of the function body is written as the escape \073.
CREATE FUNCTION "events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN RAISE EXCEPTION ''events are append-only (% refused)'', TG_OP\073 END';
CREATE TRIGGER "events_append_only" BEFORE UPDATE OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION "events_refuse_change"();
