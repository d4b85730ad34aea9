import type { CatalogEntry } from '../../../src/games/game-catalog';

/**
 * A scripted game the API tests play through a client (GraphQL or REST). The kernel script
 * is one; a Gators! script is another file of the same shape.
 */
export interface ScriptStep {
  side: string;
  kind: 'orders' | 'reaction' | 'standing-orders';
  orders: unknown;
  note: string;
  /** What the game looks like right after this step. */
  expect?: Partial<{ turn: number; phase: string; mode: string; acting: string[] }>;
}

export interface GameScript {
  /** The catalog entry the test app offers. */
  entry: () => CatalogEntry;
  scenarioId: string;
  creatorSide: string;
  joinerSide: string;
  steps: ScriptStep[];
  /** Orders that break rule `ruleId`, submitted after step `afterStep` (1-based count of steps done). */
  illegal: { afterStep: number; side: string; orders: unknown; ruleId: string };
  /** Units whose options are read after a step: reachable hexes, or an attack on targetHex with a preview. */
  optionsProbe: Array<{ afterStep: number; side: string; unitId: string; expectMoves?: boolean; targetHex?: string; expectAttack?: boolean }>;
  /** Strings `viewer` must never read in a view, an event or an update from step `fromStep` on (ids of hidden units). */
  secrets: { fromStep: number; viewer: string; strings: string[] };
  /** How the whole game ends after the steps: at the turn limit (victory), or by a resignation. */
  finish: { kind: 'victory'; winner: string | null } | { kind: 'resign'; side: string; winner: string | null };
  /** Event types the whole game's history must hold (movement, combat, reaction...). */
  expectEvents: string[];
  /** The resignation game: play `afterStep` steps, then `side` resigns. */
  resign: { afterStep: number; side: string; winner: string | null };
}
