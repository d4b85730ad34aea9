import { z } from 'zod';
import data from './campaign.json';

/**
 * The scripted Gators! campaign of campaign.json, typed: a whole game of the
 * Unnarstan scenario from the sealed setups to P1's victory at the end of turn
 * 8, one step per submission, with the dice each step must be given. The rules
 * engine replays it in ../campaign.spec.ts; the application's tests may replay
 * the same steps through the service and the API.
 *
 * A step is self-contained: the turn and phase it is submitted in, the side,
 * either a submission (`orders`, a `reaction` answer or `standing-orders`) or
 * `expire: true` (the reaction window being asked of `side` runs out unanswered:
 * call expireReaction), the forced d6 results in the order the engine rolls
 * them, a human note, optional labels naming what it shows, and what must hold
 * afterwards.
 */
const eventExpect = z.union([z.string().min(1), z.strictObject({ type: z.string().min(1), data: z.unknown().optional() })]);

const expectSchema = z.strictObject({
  /** A subset of gators.phase(state) after the step. */
  phase: z.record(z.string(), z.unknown()).optional(),
  /** Events that must appear, in this order: a type, or a type and a subset of its data. */
  events: z.array(eventExpect).optional(),
  /** Event types that must not appear. */
  absent: z.array(z.string()).optional(),
  /** Subsets of unit states after the step, by unit id. */
  units: z.record(z.string(), z.unknown()).optional(),
  /** A subset of the public Gators! state (ext) after the step. */
  ext: z.record(z.string(), z.unknown()).optional(),
});

const base = {
  turn: z.int().min(0),
  /** The scenario phase id the step is submitted in (turns.json), e.g. "p1-movement"; 0 = setup. */
  phase: z.string().min(1),
  side: z.string().min(1),
  note: z.string().min(1),
  labels: z.array(z.string().min(1)).default([]),
  dice: z.array(z.int().min(1).max(6)).default([]),
  expect: expectSchema.default({}),
};

const submitStep = z.strictObject({
  ...base,
  submission: z.strictObject({ kind: z.enum(['orders', 'reaction', 'standing-orders']), orders: z.unknown() }),
  expire: z.undefined().optional(),
});
const expireStep = z.strictObject({ ...base, expire: z.literal(true), submission: z.undefined().optional() });

const campaignSchema = z.strictObject({
  description: z.string().min(1),
  steps: z.array(z.union([submitStep, expireStep])).min(1),
});

export type CampaignExpect = z.infer<typeof expectSchema>;
export type CampaignEventExpect = z.infer<typeof eventExpect>;
export type CampaignStep = z.infer<typeof submitStep> | z.infer<typeof expireStep>;
export type Campaign = z.infer<typeof campaignSchema>;

/** The campaign's steps, checked against the schema above (a malformed file throws); a fresh copy each call. */
export function campaign(): Campaign {
  return campaignSchema.parse(structuredClone(data));
}
