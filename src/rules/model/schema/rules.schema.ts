import { z } from 'zod';
import { areaSchema, doc, id, ruleId, tags, values } from './common';

export const movementClassSchema = z.strictObject({
  ...doc,
  name: z.string().optional(),
  /** Moves on land and water and follows the waterline rules (GT-6E). */
  amphibious: z.boolean().default(false),
  /** Every on-map hex costs 1 (GT-6B.1). */
  ignoresTerrain: z.boolean().default(false),
  /** May pass over hexes holding enemy units, but never end there (Q-GT-22). */
  passThroughEnemy: z.boolean().default(false),
});

const stackingException = z.discriminatedUnion('kind', [
  /** A stack made only of these members, each within its count, is legal (GT-6D.1 (2), (3), (6)). */
  z.strictObject({
    kind: z.literal('combination'),
    members: z.array(z.strictObject({ tags, min: z.int().min(0).default(0), max: z.int().min(1) })).min(1),
    ruleId,
  }),
  /** Units with these tags stack without limit on hexes with this overlay (GT-6D.1 (4)). */
  z.strictObject({
    kind: z.literal('overlay'),
    overlay: id,
    tags,
    /** Only where the overlay's owner (airfield owner) is the unit's side. */
    friendlyOnly: z.boolean().default(true),
    ruleId,
  }),
  /** Units with these tags do not count against the limit in the area's hexes (Q-GT-46: the UH-1Ns in the capital). */
  z.strictObject({ kind: z.literal('area'), area: areaSchema, tags, ruleId }),
]);

const resultSchema = z.strictObject({
  side: z.enum(['attacker', 'defender', 'none']),
  effect: z.enum(['eliminate', 'retreat', 'none']),
  hexes: z.int().min(1).optional(),
});

const resultOverride = z.strictObject({
  /**
   * Built-in conditions the odds step understands. `defender-immobile` (speed 0, not towable
   * there) also reaches the defending stack's other counters when the result makes them retreat
   * and this override eliminates (combat/immobile.ts).
   */
  when: z.enum(['defender-defense-zero', 'defender-immobile']),
  /** Result labels replaced; empty = every result. */
  from: z.array(z.string()).default([]),
  result: z.string(),
  ruleId,
});

/** The odds-based combat results table (Gators! GT-7B, GT-9.5) as data. */
export const oddsCombatSchema = z.strictObject({
  ...doc,
  die: z.int().min(2).default(6),
  /** Odds columns in table order; odds = larger/smaller rounded down, negative when the defender is stronger. */
  columns: z.array(z.strictObject({ label: z.string(), min: z.int().optional(), max: z.int().optional() })).min(1),
  /** One row per die value 1..die, one result label per column. */
  table: z.array(z.array(z.string())).min(1),
  results: z.record(z.string(), resultSchema),
  /** How a modified die outside 1..die is read: as column shifts (Q-GT-34) or clamped. */
  dieBeyondTable: z.enum(['shift-column', 'clamp-die']).default('shift-column'),
  ignoreAttackerResults: z
    .strictObject({
      /** GT-7D.1: the defender has zero strength against every attacker's class. */
      whenDefenderCannotHarm: z.boolean().default(false),
      /** GT-7J.1: attacks from this range or more. */
      fromRange: z.int().min(1).nullable().default(null),
    })
    .default({ whenDefenderCannotHarm: false, fromRange: null }),
  /** A unit with at least this strength may split it among adjacent defenders (GT-7A.3). */
  split: z.strictObject({ minStrength: z.int().min(2), adjacentOnly: z.boolean().default(true), ruleId }).nullable().default(null),
  /** In a stack the counter with the highest defense defends (GT-7N.1, Q-GT-44). */
  defender: z.enum(['highest-defense', 'whole-stack-sum']).default('highest-defense'),
  resultOverrides: z.array(resultOverride).default([]),
  retreat: z
    .strictObject({
      /** Each step must increase the distance to every attacking unit (Q-GT-35). */
      awayFromAttackers: z.boolean().default(true),
      mayEnterEnemyZoc: z.boolean().default(true),
      ruleId,
    })
    .optional(),
  ruleIds: z.record(z.string(), ruleId).default({}),
});

/** rules.json: game-wide constants the engine reads. */
export const rulesSchema = z.strictObject({
  ...doc,
  movementClasses: z.record(id, movementClassSchema),
  targetClasses: z.array(id).min(1),
  movement: z
    .strictObject({
      /** A unit with speed > 0 may always enter one hex as its whole move (GA-MOVE-7, Q-GT-06). */
      minimumMove: z.boolean().default(false),
      /** Rule IDs cited by movement violations, by code suffix (e.g. "insufficient_mp": "GT-6A.1"). */
      ruleIds: z.record(z.string(), ruleId).default({}),
    })
    .default({ minimumMove: false, ruleIds: {} }),
  zoc: z
    .strictObject({
      /** "can-attack": an enemy exerts ZOC on a unit only if it has non-zero strength against it (GT-6C.2). */
      exertedBy: z.enum(['can-attack', 'any', 'none']).default('none'),
      /** "no-same-zoc": may not re-enter the ZOC it started in (GT-6C.3); "no-zoc-to-zoc": classic. */
      leaving: z.enum(['no-same-zoc', 'no-zoc-to-zoc', 'free']).default('free'),
      /** Hidden enemies: "ignored-until-contact" plans as if absent and stops the real move at resolution. */
      hidden: z.enum(['ignored-until-contact', 'exerts']).default('ignored-until-contact'),
      /** Units with any of these flags or attrs set exert no ZOC (broken-down, GT-6C.5). */
      noZocWhen: z.array(z.string()).default([]),
      stopRuleId: ruleId.default('ZOC'),
      leaveRuleId: ruleId.default('ZOC'),
    })
    .default({ exertedBy: 'none', leaving: 'free', hidden: 'ignored-until-contact', noZocWhen: [], stopRuleId: 'ZOC', leaveRuleId: 'ZOC' }),
  stacking: z
    .strictObject({
      /** Maximum counting units of one side per hex at the end of a move or placement; null = no limit. */
      limit: z.int().min(1).nullable(),
      /** Units with these tags never count (WAW-STACK-2). */
      exemptTags: tags.default([]),
      exceptions: z.array(stackingException).default([]),
      ruleId,
    })
    .default({ limit: null, exemptTags: [], exceptions: [], ruleId: 'STACK' }),
  transport: z
    .strictObject({
      loadedCargoMayAttack: z.boolean().default(true),
      carrierMayMoveAfterLoading: z.boolean().default(true),
      unloadedCargoMayMove: z.boolean().default(true),
      unloadedCargoMayAttack: z.boolean().default(true),
      unloadTo: z.enum(['adjacent', 'same-hex', 'same-or-adjacent']).default('same-hex'),
      /** Amphibious carriers unload only when on land (GT-6F.3, GT-6G.3 for loading). */
      amphibiousCarrierOnLandOnly: z.boolean().default(false),
      ruleIds: z.record(z.string(), ruleId).default({}),
    })
    .default({
      loadedCargoMayAttack: true,
      carrierMayMoveAfterLoading: true,
      unloadedCargoMayMove: true,
      unloadedCargoMayAttack: true,
      unloadTo: 'same-hex',
      amphibiousCarrierOnLandOnly: false,
      ruleIds: {},
    }),
  towing: z
    .strictObject({
      /** Movement points the tower loses in its first turn of towing (GT-6K.2). */
      firstTurnMpPenalty: z.number().min(0).default(0),
      towedMayNotFireWhenMoved: z.boolean().default(true),
      unhitchEndsMove: z.boolean().default(true),
      /** Whether a tower may carry cargo while it tows (GT-2.25: a 5-ton Truck carries only when not towing). */
      towerMayCarry: z.boolean().default(true),
      /**
       * Whether a tower's move may end in the hex of an own gun it could tow only by a `hitch` with a path, which
       * takes the gun in tow there (GT-6D.1 (3): "in order to tow it"). Rule ID: ruleIds.enter_to_tow, else stacking's.
       */
      enterOnlyToHitch: z.boolean().default(false),
      ruleIds: z.record(z.string(), ruleId).default({}),
    })
    .default({ firstTurnMpPenalty: 0, towedMayNotFireWhenMoved: true, unhitchEndsMove: true, towerMayCarry: true, enterOnlyToHitch: false, ruleIds: {} }),
  /** Combat tables; which one a system reads is the system's choice. */
  combat: z.strictObject({ odds: oddsCombatSchema.optional() }).catchall(z.unknown()).default({}),
  visibility: z
    .strictObject({
      enemyCargo: z.enum(['hidden', 'visible']).default('hidden'),
      /**
       * Cargo every side sees although enemy cargo is hidden: a unit with one of `tags` aboard a
       * carrier standing on one of `terrain`, in none of `notInOverlays` (Gators! AIR-02: the HERS
       * ashore, a fuel depot on the beach; not in a city, whose terrain underneath is clear).
       */
      seenCargo: z.array(z.strictObject({ ...doc, tags: tags.min(1), terrain: z.array(id).min(1), notInOverlays: z.array(id).default([]) })).default([]),
      /**
       * Flags or attrs that make a cargo unit seen aboard a carrier standing in a hex, while the
       * unit has them (Gators! Q-GT-49: a counter that fired from aboard a landing craft, for the
       * rest of the turn). Its own cargo stays hidden.
       */
      seenCargoWhen: z.array(z.string().min(1)).default([]),
    })
    .default({ enemyCargo: 'hidden', seenCargo: [], seenCargoWhen: [] }),
  values: values.default({}),
});
