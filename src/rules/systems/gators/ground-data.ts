import { z } from 'zod';
import { Scenario } from '../../model/scenario';
import { doc } from '../../model/schema/common';
import { combatSection, readSection } from './sections';

/**
 * The data of the ground special rules (part 3), from free-form sections of
 * rules.json `combat` (as data.ts does for part 1): which tags play which
 * role, the dice and the columns. A scenario without a section gets the
 * first scenario's values, so the rules read the same with or without it.
 * Strict, with the documentation keys (`description`…): see sections.ts.
 */

const tags = z.array(z.string().min(1)).min(1);

const squadsSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-6H.2'),
  squadTags: tags.default(['squad']),
  commandTags: tags.default(['command']),
  /** GT-6H.2: a squad attacks only within this many hexes of a command unit. */
  commandRange: z.int().min(0).default(3),
  /** GT-4.13, GT-6J.4: only these platoons split into squads. */
  splitTags: tags.default(['rifle-platoon']),
  /** GT-4.13: the off-map boxes (oob.json) of the unsplit squads and of the split platoons, and the hidden marker the pool lies under. */
  pool: z.string().min(1).default('squad-pool'),
  poolMarker: z.string().min(1).default('pool'),
  splitBox: z.string().min(1).default('split'),
});

const camouflageSchema = z.strictObject({
  ...doc,
  /** GT-6L.2: moving within this terrain keeps the camouflage; GT-6L.3: there only these tags uncover. */
  keepInTerrain: tags.default(['jungle']),
  uncoverTags: tags.default(['recon']),
});

const guerrillasSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-6M.2'),
  tags: tags.default(['guerrilla']),
  /** The off-map box the unraised counters wait in (oob.json). */
  pool: z.string().default('guerrilla-pool'),
  /** The die of the raise roll. */
  die: z.int().min(2).default(6),
  need: z.int().min(1).default(4),
  /** GT-6M.3: with the enemy's water purifier in or next to a city. */
  needWithWater: z.int().min(1).default(6),
  waterTags: tags.default(['rowpu']),
});

const medicsSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-6O.1'),
  tags: tags.default(['medics']),
  /** The die of the propaganda roll; `rolls` succeed. */
  die: z.int().min(2).default(6),
  rolls: z.array(z.int().min(1)).min(1).default([5, 6]),
  surrenderTags: tags.default(['militia']),
  /** GT-7M.1: every result against the medics; destroyed instead when these are among the attackers. */
  result: z.string().default('D R1'),
  hostageTakerTags: tags.default(['guerrilla']),
});

const debrisSchema = z.strictObject({
  ...doc,
  /**
   * GT-6Q.3: no vehicle may enter (landing craft are read as vehicles: Debris "may block a beach", GT-6Q.2;
   * so are towed guns and wheeled equipment, the ROWPU: what a vehicle tows or a CH-53E carries as one).
   */
  blocksTags: tags.default(['vehicle', 'landing-craft', 'gun', 'equipment']),
  /** GT-6Q.8: Debris on a bridge closes it to these. */
  bridgeBlocksTags: tags.default(['ground']),
  trap: z
    .strictObject({
      ...doc,
      rolls: z.array(z.int().min(1)).min(1).default([1, 2]),
      column: z.string().default('2'),
      victimTags: tags.default(['infantry']),
      immuneTags: tags.default(['engineers', 'seal']),
    })
    .default({ rolls: [1, 2], column: '2', victimTags: ['infantry'], immuneTags: ['engineers', 'seal'] }),
  /** GT-6Q.6, GT-6Q.7: who removes the marker, who only clears its traps; full turns needed. Removers alone may move onto a bridge Debris destroyed (GT-6Q.8). */
  removerTags: tags.default(['engineers', 'militia']),
  clearerTags: tags.default(['seal']),
  turns: z.int().min(1).default(1),
  bridgeTurns: z.int().min(1).default(2),
  /** GT-6Q.1: the units that may leave Debris behind when they leave their hex (the defending side's). */
  leftByTags: tags.default(['platoon']),
});

const sabotageTarget = z.strictObject({ ...doc, tags, column: z.string(), skipPreRolls: z.boolean().default(false) });

const sabotageSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-7K.1'),
  unitTags: tags.default(['seal']),
  /** GT-7K.1 (1)–(3): the first entry whose tags the defender has gives the fixed column; the Hawk (`sam`) is a weapon crew. */
  targets: z.array(sabotageTarget).default([
    { tags: ['heavy-weapons', 'infantry-weapon', 'jeep', 'artillery', 'sam'], column: '4', skipPreRolls: false },
    { tags: ['tank', 'apc'], column: '3', skipPreRolls: false },
    { tags: ['guerrilla'], column: '2', skipPreRolls: true },
  ]),
  /** GT-7K.1 (4), Q-GT-43: every aircraft on an airfield, one roll each. */
  aircraft: z.strictObject({ ...doc, tags, column: z.string() }).default({ tags: ['aircraft'], column: '3' }),
});

const bombardmentSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-7J.2'),
  /** Q-GT-42: "bombardment" = an attack by a unit of this range or more. */
  rangedFrom: z.int().min(2).default(2),
  /** Q-GT-42 (b): when the defender has one of these tags (artillery bombarded), every attacker suffers A R as A X. */
  artilleryTags: tags.default(['artillery']),
  spotterTags: tags.default(['spotter']),
  spotterModifier: z.int().default(1),
  spotterRuleId: z.string().default('GT-7J.3'),
});

const commandBonusSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-2.42'),
  vehicleTags: tags.default(['apc']),
  unitTags: tags.default(['infantry', 'infantry-weapon']),
  exceptTags: z.array(z.string()).default(['guerrilla']),
  modifier: z.int().default(1),
});

const reconSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-2.13'),
  teamTags: tags.default(['recon']),
  /** The pre-roll's highest success with an enemy aircraft in the air (not landed, Q-GT-51) next to the team, outside these. */
  widenedMax: z.int().min(1).default(2),
  helperTags: tags.default(['aircraft']),
  notInTerrain: z.array(z.string()).default(['jungle']),
  notInOverlays: z.array(z.string()).default(['city']),
});

const sniperSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-2.15'),
  unitTags: tags.default(['sniper']),
  targetTags: tags.default(['single-person']),
  /** The die of the shot. */
  die: z.int().min(2).default(6),
  /** Lowest die that hits, by range. */
  hitFrom: z.record(z.string(), z.int().min(1)).default({ '1': 3, '2': 4 }),
});

const cargoFireCarrier = z.strictObject({ ...doc, tags, exceptTags: z.array(z.string().min(1)).default([]) });

const cargoFireSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-6G.5'),
  /** GT-6G.5: cargo fires from a transport with one of `tags`, unless it has one of `exceptTags`. */
  carriers: z.array(cargoFireCarrier).default([
    { tags: ['lcu'], exceptTags: ['no-fire-from-landing-craft'] },
    { tags: ['lcac'], exceptTags: ['no-fire-from-landing-craft', 'no-fire-from-lcac'] },
  ]),
});

/** The sections of this file, by GroundData key (rules.json combat.<key>), for the check at load. */
export const GROUND_SECTIONS = {
  squads: combatSection('squads', squadsSchema),
  camouflage: combatSection('camouflage', camouflageSchema),
  guerrillas: combatSection('guerrillas', guerrillasSchema),
  medics: combatSection('medics', medicsSchema),
  debris: combatSection('debris', debrisSchema),
  sabotage: combatSection('sabotage', sabotageSchema),
  bombardment: combatSection('bombardment', bombardmentSchema),
  commandBonus: combatSection('commandBonus', commandBonusSchema),
  recon: combatSection('recon', reconSchema),
  sniper: combatSection('sniper', sniperSchema),
  cargoFire: combatSection('cargoFire', cargoFireSchema),
};

export interface GroundData {
  readonly squads: z.infer<typeof squadsSchema>;
  readonly camouflage: z.infer<typeof camouflageSchema>;
  readonly guerrillas: z.infer<typeof guerrillasSchema>;
  readonly medics: z.infer<typeof medicsSchema>;
  readonly debris: z.infer<typeof debrisSchema>;
  readonly sabotage: z.infer<typeof sabotageSchema>;
  readonly bombardment: z.infer<typeof bombardmentSchema>;
  readonly commandBonus: z.infer<typeof commandBonusSchema>;
  readonly recon: z.infer<typeof reconSchema>;
  readonly sniper: z.infer<typeof sniperSchema>;
  readonly cargoFire: z.infer<typeof cargoFireSchema>;
}

const cache = new WeakMap<Scenario, GroundData>();

/** The scenario's ground-rule data, parsed once (a malformed section throws a ScenarioError; checked at load). */
export function groundData(s: Scenario): GroundData {
  let d = cache.get(s);
  if (d === undefined) {
    d = parseGroundData(s);
    cache.set(s, d);
  }
  return d;
}

export function parseGroundData(s: Scenario): GroundData {
  const g = GROUND_SECTIONS;
  return {
    squads: readSection(s, g.squads),
    camouflage: readSection(s, g.camouflage),
    guerrillas: readSection(s, g.guerrillas),
    medics: readSection(s, g.medics),
    debris: readSection(s, g.debris),
    sabotage: readSection(s, g.sabotage),
    bombardment: readSection(s, g.bombardment),
    commandBonus: readSection(s, g.commandBonus),
    recon: readSection(s, g.recon),
    sniper: readSection(s, g.sniper),
    cargoFire: readSection(s, g.cargoFire),
  };
}
