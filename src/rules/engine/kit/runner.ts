import { Json, JsonObject, sameJson } from '../../model/json';
import { GameState, ReactionRequest } from '../../model/state';
import { EventBody, RECORDS, privateEvent, publicEvent } from '../events';
import { evolveRemembered } from '../evolve';
import { currentPhase, nextPhase } from '../phase-machine';
import { Dice, RulesEvent, SideId, StandingAnswers } from '../types';
import { checkVictory, turnLimitOutcome } from '../victory';
import { fastSchema } from './fast-schema';
import { recordsGathered } from './own-records';
import { AskRequest, AskResult, OrderHandler, ReactionKind, ResolveContext, Resume, SystemSpec } from './types';

/**
 * A ResolveContext that folds every emitted event into its state at once, so
 * that each step of a resolution sees the results of the previous ones.
 */
export class Resolution<X extends Json> implements ResolveContext<X> {
  readonly events: RulesEvent[] = [];
  /** Set when an ask could not be decided by standing orders: the resolution must stop. */
  suspended: AskRequest | null = null;
  private current: GameState<X>;

  constructor(
    readonly spec: SystemSpec<X>,
    state: GameState<X>,
    readonly dice: Dice,
    public side: SideId,
    /** Replaying a log: the answers it recorded stand in for the standing orders (StandingAnswers). */
    private readonly answers?: StandingAnswers,
  ) {
    this.current = state;
  }

  get state(): GameState<X> {
    return this.current;
  }

  emit(event: RulesEvent): void {
    this.events.push(event);
    this.current = evolveRemembered(this.current, event, this.spec.evolve);
  }

  /** Replaces the events from `from` on, whose fold started at `state`, by `events`, folded again. */
  rewrite(from: number, state: GameState<X>, events: readonly RulesEvent[]): void {
    this.events.length = from;
    this.current = state;
    for (const e of events) this.emit(e);
  }

  /** The answer the side's standing orders give to `request`, or null when they do not decide it. */
  standingAnswer(kind: ReactionKind<X>, request: ReactionRequest): Json | null {
    if (this.answers) return (this.answers.next(request.side, request.kind) as Json | null | undefined) ?? null;
    return kind.fromStanding(this.state, request, this.state.sides[request.side]?.secret.standing[request.kind]);
  }

  ask(request: AskRequest): AskResult {
    if (this.suspended !== null) throw new Error('ask() called again after the resolution was suspended');
    const kind = this.spec.reactions?.[request.kind];
    if (kind === undefined) throw new Error(`no reaction kind "${request.kind}" in system ${this.spec.id}`);
    const answer = this.standingAnswer(kind, request);
    if (answer !== null) {
      this.emit(
        privateEvent('ReactionAnswered', { side: request.side, kind: request.kind, answer, by: 'standing-orders' }, [request.side], {
          type: 'ReactionAnswered',
          data: { side: request.side, kind: request.kind, by: 'standing-orders' },
        }),
      );
      return { answered: true, answer };
    }
    this.suspended = request;
    return { answered: false };
  }
}

/**
 * The orders parse() returned, with the schema that made each: resolution uses them as they
 * are instead of parsing them again (an order schema's output parses to itself: order schemas
 * have no transforms), so resolve sees the very objects validate saw. Orders from anywhere
 * else (a suspended resolution's, sealed ones) are parsed as before. One entry per list, not
 * per order: WeakMap insertions are costly (state-memo.ts).
 */
const parsedBy = new WeakMap<readonly object[], { readonly orders: readonly object[]; readonly schemas: readonly unknown[] }>();

export function markParsed(orders: readonly object[], schemas: readonly unknown[]): void {
  parsedBy.set(orders, { orders: orders.slice(), schemas });
}

export function handlerFor<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, kind: string): OrderHandler<X, unknown> | undefined {
  const def = currentPhase(state);
  return def === undefined ? undefined : spec.phases[def.kind]?.orders?.find((h) => h.kind === kind);
}

/**
 * Resolves orders[from..] in turn. Returns false when an order stopped at a
 * reaction point; the suspension is then recorded in two events: the
 * remaining orders for their own side only, and the question for the
 * reacting side (everyone else reads the public prompt). The side's records
 * of the run go into one event before those, or at the end (own-records.ts),
 * but a sealed phase's, which go with the rest of its secrets (sealed-secrets.ts).
 */
export function runOrders<X extends Json>(
  r: Resolution<X>,
  orders: readonly JsonObject[],
  from: number,
  indexOffset: number,
  endsPhase: boolean,
  resume?: Resume,
  records: 'gathered' | 'sealed' = 'gathered',
): boolean {
  const run = { at: r.events.length, before: r.state };
  const parsed = parsedBy.get(orders);
  for (let i = from; i < orders.length; i++) {
    const o = orders[i]!;
    const h = handlerFor(r.spec, r.state, String(o['kind']));
    if (h === undefined) throw new Error(`no handler for order kind ${String(o['kind'])} in this phase`);
    h.resolve(r, parsed?.orders[i] === o && parsed.schemas[i] === h.schema ? o : fastSchema(h.schema).parse(o), indexOffset + i, i === from ? resume : undefined);
    // After the end every event is read by all: there is nothing left to gather.
    if (r.state.phase.stage === 'ended') return true;
    const ask = r.suspended;
    if (ask !== null) {
      if (records === 'gathered') gatherRecords(r, run.at, run.before);
      const def = currentPhase(r.state);
      r.emit(
        privateEvent(
          'ResolutionSuspended',
          { pending: { side: r.side, phaseId: def?.id ?? '', orders, index: i, stage: ask.stage, indexOffset, endsPhase } },
          [r.side],
          { type: 'ResolutionSuspended', data: { side: r.side } },
        ),
      );
      const { stage: _stage, ...request } = ask;
      r.emit(privateEvent('ReactionRequested', { request }, [ask.side], { type: 'ReactionRequested', data: { side: ask.side, kind: ask.kind, prompt: ask.prompt } }));
      return false;
    }
  }
  if (records === 'gathered') gatherRecords(r, run.at, run.before);
  return true;
}

/**
 * Logs the side's records of the run that started at event `from` on `before` in one event
 * (own-records.ts). A phase that allows no order kind can have none, which everyone can tell:
 * its runs write nothing more.
 */
function gatherRecords<X extends Json>(r: Resolution<X>, from: number, before: GameState<X>): void {
  const def = currentPhase(before);
  if ((def === undefined ? 0 : (r.spec.phases[def.kind]?.orders?.length ?? 0)) === 0) return;
  const run = r.events.slice(from);
  const gathered = recordsGathered(run, r.side, new Set([...RECORDS, ...(r.spec.records ?? [])]));
  if (run.every((e, k) => gathered[k] === e)) return r.emit(gathered[run.length]!);
  const seen = r.state;
  r.rewrite(from, before, gathered);
  // The log must give the game the run's orders were resolved on: SystemSpec.records promises it.
  if (!sameGame(seen, r.state)) throw new Error(`system ${r.spec.id}: its records, folded at the end of a run, give another game than in place (SystemSpec.records)`);
}

/**
 * The same game, whatever the number of events folded to reach it. Folding records later may
 * add an object's keys in another order, which changes no game.
 */
function sameGame(a: GameState, b: GameState): boolean {
  const of = (s: GameState) => [s.phase, s.units, s.sides, s.pending, s.ext];
  return sameJson(of(a), of(b), 'ignored');
}

/** Moves the phase machine on until a phase needs a submission (running auto phases) or the game ends. */
export function advance<X extends Json>(r: Resolution<X>): void {
  for (let guard = 0; guard < 10_000; guard++) {
    const s = r.state;
    let next = nextPhase(s.scenario, s.phase);
    if (next.kind === 'turn-end') {
      // A system's own victory test replaces victory.json's (its null means "nobody has won yet").
      const outcome = r.spec.victory !== undefined ? r.spec.victory(s) : checkVictory(s);
      if (outcome !== null) return r.emit(publicEvent('GameEnded', { winner: outcome.winner, reason: outcome.reason, ruleId: outcome.ruleId }));
      if (next.last) {
        const t = turnLimitOutcome(s);
        return r.emit(publicEvent('GameEnded', { winner: t.winner, reason: t.reason, ruleId: t.ruleId }));
      }
      next = nextPhase(s.scenario, s.phase, true);
      if (next.kind !== 'phase') throw new Error('phase machine did not start a new turn');
    }
    r.emit(publicEvent('PhaseAdvanced', next.data));
    const def = currentPhase(r.state)!;
    const kind = r.spec.phases[def.kind];
    if (kind === undefined) throw new Error(`system ${r.spec.id} has no phase kind "${def.kind}" (turns.json phase ${def.id})`);
    r.side = def.side ?? r.side;
    kind.onEnter?.(r);
    if (def.auto) kind.auto?.(r);
    if (r.suspended !== null) throw new Error(`phase ${def.id} asked for a reaction while entering or running automatically`);
    if (r.state.phase.stage === 'ended') return;
    if (!def.auto) return;
  }
  // Loaded data cannot get here (a phase a side acts in each turn, at most 1,000 phases:
  // turns.schema.ts): only a system that never lets an automatic phase end could.
  throw new Error('the phase machine ran 10,000 automatic phases without stopping');
}

/**
 * Folds events into a state (validation projections), remembering each step:
 * resolving the same orders usually emits the same events, and then goes
 * through the same states (transitions.ts).
 */
export function fold<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, events: readonly EventBody[]): GameState<X> {
  let s = state;
  for (const e of events) s = evolveRemembered(s, e, spec.evolve);
  return s;
}
