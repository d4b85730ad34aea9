import { SeededDice } from '../../src/rules/dice/seeded-dice';
import { boardOf } from '../../src/rules/engine/board';
import { Json, JsonObject } from '../../src/rules/model/json';
import { ReactionRequest } from '../../src/rules/model/state';
import { GState } from '../../src/rules/systems/gators/ext';
import { GATORS_SPEC, gators } from '../../src/rules/systems/gators/index';
import { orderFor } from '../../src/rules/systems/gators/examples/option-order';

/** What parse and validate say of a submission of these orders, one line each. */
export function violationKeys(state: GState, side: string, orders: readonly JsonObject[]): string[] {
  const p = gators.parse(state, side, { kind: 'orders', orders });
  return (p.ok ? gators.validate(state, side, p.value) : p.violations).map((v) => `${v.ruleId} ${v.code}: ${v.message}`);
}

function shuffled<T>(xs: readonly T[], rng: SeededDice): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.roll(i + 1) - 1;
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface BotPhase {
  readonly orders: JsonObject[];
  /** Where the bot's draft broke a rule after an order the options had offered. */
  readonly problems: string[];
  /** The kinds of the orders chosen, units' and side's. */
  readonly kinds: readonly string[];
  /** How many of them were the side's orders of no one unit. */
  readonly sideOrders: number;
}

export interface BotOptions {
  /** Units given a chance, at most. */
  readonly units: number;
  /** 1 in `skip` of them gets no order (0: none skipped). */
  readonly skip: number;
  /** A whole setup: each unit is given orders until it is placed (an aircraft's loadout first, where it needs one), three at most. */
  readonly setup?: boolean;
  /** A third of the units first try to join one of the draft's attacks (kept if the draft stays valid). */
  readonly combine?: boolean;
  /** Half the time, an attack if the unit is offered one, else the move that ends nearest an enemy. */
  readonly aggressive?: boolean;
}

/** An attack among the orders, or the move ending nearest an enemy counter (as the bot, which sees all, knows them); null if neither. */
function towardTheEnemy(state: GState, side: string, orders: readonly JsonObject[], rng: SeededDice): JsonObject | null {
  const attacks = orders.filter((o) => o['kind'] === 'attack');
  if (attacks.length > 0) return attacks[rng.roll(attacks.length) - 1]!;
  const grid = boardOf(state.scenario).grid;
  const enemies = Object.values(state.units).flatMap((u) => (u.side !== side && u.loc.at === 'hex' ? [grid.indexOf(u.loc.hex)] : []));
  const moves = orders.filter((o) => o['kind'] === 'move');
  if (enemies.length === 0 || moves.length === 0) return null;
  const near = (o: JsonObject) => {
    const path = o['path'] as string[];
    const end = grid.indexOf(path[path.length - 1]!);
    return Math.min(...enemies.map((e) => grid.distance(end, e)));
  };
  return moves.reduce((best, o) => (near(o) < near(best) ? o : best));
}

/**
 * A client building a phase order by order from the options after its draft, at random (seeded):
 * the side's units in a random order, most of them given a random one of their options (half of
 * those a second one, from their options after the first: Debris where a platoon was), then one or
 * two of the side's options (a hex for Debris, camouflage or guerrillas). Each order must keep the
 * draft valid (validateDraft); what the whole phase breaks is for the caller to judge.
 */
export function botPhase(state: GState, side: string, rng: SeededDice, opts: BotOptions): BotPhase {
  const orders: JsonObject[] = [];
  const problems: string[] = [];
  const kinds: string[] = [];
  let sideOrders = 0;
  const refusals = () => {
    const q = gators.parse(state, side, { kind: 'orders', orders });
    return q.ok ? gators.validateDraft(state, side, q.value) : q.violations;
  };
  const add = (pick: JsonObject) => {
    orders.push(pick);
    kinds.push(pick['kind'] as string);
    const refused = refusals();
    if (refused.length > 0) problems.push(`${JSON.stringify(pick)} breaks the draft: ${refused.map((v) => `${v.ruleId} ${v.message}`).join(' | ')}`);
  };
  // Joining an attack of the draft is no option of its own (the unit's options after the draft
  // offer no second attack on that hex): tried, and undone if the rules refuse it.
  const join = (unit: string): boolean => {
    if (!orders.some((o) => o['kind'] === 'attack')) return false;
    // The attacks on hexes the unit could attack on its own, before the draft.
    const alone = gators.options(state, side, unit);
    const targets = new Set(Array.isArray(alone) ? [] : alone.attacks.map((a) => a.targetHex));
    const attacks = orders.flatMap((o, k) => (o['kind'] === 'attack' && targets.has(o['target'] as string) ? [k] : []));
    if (attacks.length === 0) return false;
    const k = attacks[rng.roll(attacks.length) - 1]!;
    const was = orders[k]!;
    orders[k] = { ...was, attackers: [...(was['attackers'] as JsonObject[]), { unit }] };
    if (refusals().length === 0) {
      kinds.push('attack');
      return true;
    }
    orders[k] = was;
    return false;
  };
  const draft = () => {
    const p = gators.parse(state, side, { kind: 'orders', orders });
    if (!p.ok) problems.push(`the draft no longer parses: ${JSON.stringify(p.violations)}`);
    return p.ok ? p.value : undefined;
  };
  const units = Object.values(state.units).filter((u) => u.side === side).map((u) => u.id).sort();
  for (const unit of shuffled(units, rng).slice(0, opts.units)) {
    if (opts.combine === true && rng.roll(3) === 1 && join(unit)) continue;
    for (let n = opts.setup === true ? 3 : opts.skip > 0 && rng.roll(opts.skip) === 1 ? 0 : rng.roll(2); n > 0; n--) {
      const d = draft();
      if (d === undefined) return { orders, problems, kinds, sideOrders };
      const o = gators.options(state, side, unit, d);
      if (Array.isArray(o)) break; // a unit the draft made away with (merged, say)
      const offered = [...o.moves.map((m) => orderFor(unit, 'move', m)), ...o.attacks.map((a) => orderFor(unit, 'attack', a)), ...(o.other ?? []).map((x) => orderFor(unit, 'other', x))].filter(
        (x): x is JsonObject => x !== null,
      );
      // A setup's second order is the unit's place, once its loadout is chosen.
      const places = opts.setup === true && n < 3 ? offered.filter((x) => x['kind'] === 'place') : [];
      const from = places.length > 0 ? places : offered;
      if (from.length === 0) break;
      const pick = (opts.aggressive === true && rng.roll(2) === 1 ? towardTheEnemy(state, side, from, rng) : null) ?? from[rng.roll(from.length) - 1]!;
      add(pick);
      if (opts.setup === true && pick['kind'] === 'place') break;
    }
  }
  for (let n = rng.roll(3) - 1; n > 0; n--) {
    const d = draft();
    if (d === undefined) break;
    const offered = gators.sideOptions(state, side, d);
    if (offered.length === 0) break;
    const x = offered[rng.roll(offered.length) - 1]!;
    add({ kind: x.action, ...(x.detail as JsonObject) });
    sideOrders++;
  }
  return { orders, problems, kinds, sideOrders };
}

/**
 * A phase the rules accept, as a bot playing a whole game needs one: its phase with `units`
 * given a chance; where the rules refuse that as a whole (it left out a unit they say must move,
 * as a craft launched off the map), one giving every unit a chance, twice. A setup gives every
 * unit its place. Null when none was accepted; the bot's problems are added to `problems`.
 */
export function acceptedBotPhase(state: GState, side: string, rng: SeededDice, opts: { units: number; combine?: boolean; aggressive?: boolean }, problems: string[]): BotPhase | null {
  const setup = gators.phase(state).turn === 0;
  const all = Number.MAX_SAFE_INTEGER;
  for (const [units, skip] of [[setup ? all : opts.units, 4], [all, 0], [all, 0]] as const) {
    const b = botPhase(state, side, rng, { ...opts, units, skip, setup });
    problems.push(...b.problems);
    if (violationKeys(state, side, b.orders).length === 0) return b;
  }
  return null;
}

/** Standing orders a bot may set, by reaction kind (the Militia's surrender order is left unset). */
export const BOT_STANDING: Readonly<Record<string, readonly Json[]>> = {
  'anti-landing': ['all', 'none'],
  jettison: ['always', 'never'],
  'camouflage-unmask': ['all', 'none', 'ask'],
  retreat: ['auto', 'ask'],
  'stack-defender': ['auto', 'ask'],
};

/** Reactions only the defending side is asked: the landing side's standing orders for them are refused. */
const DEFENDER_ONLY: ReadonlySet<string> = new Set(['anti-landing', 'camouflage-unmask']);

/** Random standing orders for `side`, one of BOT_STANDING's for each kind it can be asked (the dice drawn for every kind, so a seed plays the same game whichever side draws). */
export function botStanding(rng: SeededDice, side: string, landingSide = 'P1'): Record<string, Json> {
  const drawn = Object.entries(BOT_STANDING).map(([k, xs]) => [k, xs[rng.roll(xs.length) - 1]!] as const);
  return Object.fromEntries(drawn.filter(([k]) => side !== landingSide || !DEFENDER_ONLY.has(k)));
}

/** A bot's answer to a reaction window: what one of its possible standing orders would answer, or "no reaction" where they would not decide. */
export function botAnswer(state: GState, request: ReactionRequest, rng: SeededDice): Json {
  const kind = GATORS_SPEC.reactions?.[request.kind];
  if (kind === undefined) throw new Error(`a request of no known kind: ${request.kind}`);
  const choices = BOT_STANDING[request.kind] ?? [];
  return (choices.length > 0 ? kind.fromStanding(state, request, choices[rng.roll(choices.length) - 1]!) : null) ?? kind.none(state, request);
}
