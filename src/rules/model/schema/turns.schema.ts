import { z } from 'zod';
import { doc, id, ruleId } from './common';

export const phaseDefSchema = z.strictObject({
  ...doc,
  id,
  /** What the system does in this phase ("movement", "combat", "setup", "end-of-turn"…). */
  kind: id,
  name: z.string().optional(),
  mode: z.enum(['sequential', 'simultaneous']).default('sequential'),
  /** The side that acts (sequential). */
  side: id.optional(),
  /** The sides that act (simultaneous). */
  sides: z.array(id).optional(),
  /** Resolved by the engine with no submission (end of turn, a scripted roll). */
  auto: z.boolean().default(false),
  /** Several submissions per phase; the last one says it ends the phase (Grav Armor, one unit at a time). */
  multiSubmission: z.boolean().default(false),
  /** Unit flags cleared when this phase begins (all flags are cleared at each new turn). */
  clearsFlags: z.array(z.string()).default([]),
  ruleId: ruleId.optional(),
});

/**
 * The phase machine runs automatic phases until one needs a side (engine/kit/runner.ts advance,
 * which gives up after 10,000): with a phase a side acts in every turn (cross-checks), these
 * caps keep a scenario's data far from that guard.
 */
const MAX_PHASES = 1_000;

/** turns.json: turn track and phase sequence. */
export const turnsSchema = z.strictObject({
  ...doc,
  turns: z.int().min(1).max(10_000),
  /** Cyclic pattern of the time of day per turn, starting with turn 1 (["day", "night"]). */
  timeOfDay: z.array(z.string().min(1)).default([]),
  setup: z.array(phaseDefSchema).max(MAX_PHASES).default([]),
  phases: z.array(phaseDefSchema).min(1).max(MAX_PHASES),
  /**
   * The rule an answer breaks when no reaction is being asked for (its window closed, or none
   * opened): a reaction may not be put off (Gators! GT-7O.3). Default: the phase's rule.
   */
  reactionRuleId: ruleId.optional(),
});
