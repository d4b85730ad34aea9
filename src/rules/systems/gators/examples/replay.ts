import { ForcedDice } from '../../../dice/forced-dice';
import { unbundled } from '../../../engine/kit/sealed-secrets';
import { RulesEvent, Violation } from '../../../engine/types';
import { JsonObject } from '../../../model/json';
import { Scenario } from '../../../model/scenario';
import { GState } from '../ext';
import { gators } from '../index';
import { CampaignStep, campaign } from './index';

/** One step of the campaign played: the states either side of it and its events (unbundled). */
export interface Played {
  readonly step: CampaignStep;
  readonly index: number;
  readonly before: GState;
  readonly after: GState;
  readonly events: readonly RulesEvent[];
}

/** The state before the campaign's first step: a new two-side game of `scenario`. */
export function startCampaign(scenario: Scenario): GState {
  return gators.start(scenario, { sides: ['P1', 'P2'] }).reduce<GState | undefined>((s, e) => gators.evolve(s, e), undefined)!;
}

/** Authoring help: what the engine would allow the units of a refused submission (moves and other actions). */
function optionsHint(state: GState, side: string, orders: unknown): string {
  if (!Array.isArray(orders)) return '';
  const units = [...new Set(orders.flatMap((o) => (typeof (o as JsonObject)['unit'] === 'string' ? [(o as JsonObject)['unit'] as string] : [])))];
  return units
    .map((u) => {
      const o = gators.options(state, side, u);
      if (Array.isArray(o)) return `  ${u}: ${o.map((v) => v.message).join('; ')}`;
      const moves = o.moves.slice(0, 12).map((m) => `${m.hex} via ${m.path.join(',')}`);
      return `  ${u}: moves ${moves.join(' | ') || 'none'}; attacks ${o.attacks.map((a) => a.targetHex).join(',') || 'none'}; other ${JSON.stringify(o.other ?? [])}`;
    })
    .join('\n');
}

function refused(k: number, step: CampaignStep, state: GState, violations: readonly Violation[]): Error {
  const list = violations.map((v) => `${v.ruleId} ${v.code} @${v.orderIndex}: ${v.message}`).join('\n  ');
  const hint = step.submission === undefined ? '' : optionsHint(state, step.side, step.submission.orders);
  return new Error(`step ${k} (turn ${step.turn} ${step.phase}, ${step.side}: ${step.note}) was refused:\n  ${list}\noptions now:\n${hint}`);
}

/** Plays one step: the phase it names must be the current one; no violation; every forced die used. */
export function playStep(state: GState, step: CampaignStep, k: number): Played {
  const ph = gators.phase(state);
  if (ph.turn !== step.turn || ph.phase !== step.phase)
    throw new Error(`step ${k} (${step.note}) is for turn ${step.turn} ${step.phase}, but the game is at turn ${ph.turn} ${ph.phase}`);
  const dice = new ForcedDice(step.dice);
  let events: RulesEvent[];
  if (step.expire === true) {
    if (ph.mode !== 'reaction' || ph.acting[0] !== step.side) throw new Error(`step ${k}: no reaction of ${step.side} is pending to expire`);
    events = gators.expireReaction(state, dice);
  } else {
    const parsed = gators.parse(state, step.side, step.submission);
    if (!parsed.ok) throw refused(k, step, state, parsed.violations);
    const violations = gators.validate(state, step.side, parsed.value);
    if (violations.length > 0) throw refused(k, step, state, violations);
    events = gators.resolve(state, step.side, parsed.value, dice);
  }
  if (dice.remaining > 0) throw new Error(`step ${k} (${step.note}): ${dice.remaining} forced dice were not used (rolled: ${JSON.stringify(dice.rolls)})`);
  return { step, index: k, before: state, after: events.reduce((s, e) => gators.evolve(s, e), state), events: unbundled(events) };
}

const played = new WeakMap<Scenario, Played[]>();
/** The whole campaign of campaign.json played on `scenario` (once per scenario object); throws at a step that fails. */
export function replayCampaign(scenario: Scenario): Played[] {
  const known = played.get(scenario);
  if (known !== undefined) return known;
  const out: Played[] = [];
  let state = startCampaign(scenario);
  campaign().steps.forEach((step, k) => {
    const p = playStep(state, step, k);
    out.push(p);
    state = p.after;
  });
  played.set(scenario, out);
  return out;
}
