import { SeededDice } from '../dice/seeded-dice';
import { boardOf } from '../engine/board';
import { concealedFrom, eventAsSeenBy } from '../engine/visibility';
import { GameSystem, RawSubmission, SideId } from '../engine/types';
import { JsonObject } from '../model/json';
import { GameState, UnitState } from '../model/state';
import { carryOut, partingLeak } from './blind-outcomes';
import { lcg, mutate } from './order-fuzz';
import { Twin, keepingStanding, twinsOf } from './twins';

/**
 * A side's refused orders and its unit options must read the same whatever the other sides hide:
 * the server sends both back as they are, so an answer that depends on a hidden fact tells it.
 * (Views and outcomes are compared by the leak tests of the games and API layers; here, the
 * answers before anything resolves, over many more positions and orders, and what an accepted
 * order's events name and count.)
 *
 * For a state where `side` acts, a twin is the same state with something the opponents hide
 * changed (twinsOf), kept only when `side`'s view of both is identical, so that `side` really
 * cannot tell them apart. Every probe (the step's own orders, the same broken at random, moves and
 * attacks into and around the hidden units, orders naming the opponent's units, every unit's
 * options and the side's, and the same after a draft of the step's own orders) must then get the same answer in the state and in each twin, and so must a spectator's
 * view, which shows less than the side's. Carried out, the accepted orders must read the same too,
 * to the side and, for its real orders, to the other sides (blind-outcomes.ts).
 */
export interface BlindResult {
  /** States probed, twins made, answers compared. */
  states: number;
  twins: number;
  /** Twins by kind (exchange, retype, join, secrets, cargo, attrs): each kind must turn up somewhere, or its probes prove nothing. */
  kinds: Record<string, number>;
  probes: number;
  /** States where a draft of the side's own orders was probed, with every unit's options after it. */
  drafts: number;
  /** Of the order probes: how many the state itself accepted (no violation), and refused. */
  accepted: number;
  refused: number;
  /** Pairs of runs of an accepted submission compared as a side (or a spectator) reads them (blind-outcomes.ts). */
  outcomes: number;
  /** One line per answer that differed. */
  leaks: string[];
}

export interface BlindStep<S extends GameState> {
  label: string;
  state: S;
  side: SideId;
  /** The submission the side really made here, if any: a seed for the random breakage. */
  submission?: RawSubmission;
  /** The dice it was carried out with (forced values), if known: its runs roll them first. */
  dice?: readonly number[];
}

export interface BlindOptions {
  seed: number;
  broken: number;
  maxTwins: number;
  /** Accepted probes carried out in the state and every twin, the step's own submission first (default: all). */
  carried?: number;
}

/** The first half of a submission of two or more orders, as a draft a client might hold. */
function draftOf(sub: RawSubmission | undefined): RawSubmission | undefined {
  if (sub?.kind !== 'orders' || !Array.isArray(sub.orders) || sub.orders.length < 2) return undefined;
  return { kind: 'orders', orders: sub.orders.slice(0, Math.ceil(sub.orders.length / 2)) };
}

export function secretBlind<S extends GameState>(system: GameSystem<S>, steps: readonly BlindStep<S>[], opts: BlindOptions): BlindResult {
  const rnd = lcg(opts.seed);
  const result: BlindResult = { states: 0, twins: 0, kinds: {}, probes: 0, drafts: 0, accepted: 0, refused: 0, outcomes: 0, leaks: [] };
  const seen = new Set<string>();
  for (const step of steps) {
    const viewOf = (s: S) => JSON.stringify(system.view(s, { kind: 'side', side: step.side }));
    const twins = twinsOf(step.state, step.side, viewOf, opts.maxTwins);
    result.states++;
    if (twins.length === 0) continue;
    result.twins += twins.length;
    for (const t of twins) result.kinds[t.kind] = (result.kinds[t.kind] ?? 0) + 1;
    const accepted: RawSubmission[] = [];
    const answer = (s: S, raw: RawSubmission): string => {
      const parsed = system.parse(s, step.side, raw);
      const violations = parsed.ok ? system.validate(s, step.side, parsed.value) : parsed.violations;
      if (s === step.state) result[violations.length === 0 ? 'accepted' : 'refused']++;
      if (s === step.state && violations.length === 0) accepted.push(raw);
      return JSON.stringify(violations);
    };
    // A throw is an answer too (the server's 500): it must not differ either.
    const safely = (of: (s: S) => string) => (s: S) => {
      try {
        return of(s);
      } catch (err) {
        return `threw ${err instanceof Error ? err.message : String(err)}`;
      }
    };
    const compare = (what: string, of: (s: S) => string) => {
      result.probes++;
      const mine = safely(of)(step.state);
      for (const t of twins) {
        const theirs = safely(of)(t.state);
        if (theirs === mine) continue;
        const line = `${step.label}, ${what}, ${t.swapped}:\n    ${mine.slice(0, 600)}\n    ${theirs.slice(0, 600)}`;
        if (!seen.has(line)) {
          seen.add(line);
          result.leaks.push(line);
        }
      }
    };
    const units = Object.keys(step.state.units);
    for (const raw of probes(step.state, step.side, step.submission)) compare(JSON.stringify(raw).slice(0, 300), (s) => answer(s, raw));
    if (step.submission !== undefined)
      for (let n = 0; n < opts.broken; n++) {
        const raw = { kind: step.submission.kind, orders: mutate(step.submission.orders, units, rnd) } as RawSubmission;
        compare(`broken ${JSON.stringify(raw).slice(0, 300)}`, (s) => answer(s, raw));
      }
    for (const id of units) compare(`options of ${id}`, (s) => JSON.stringify(system.options(s, step.side, id)));
    compare("the side's options", (s) => JSON.stringify(system.sideOptions(s, step.side)));
    // A client writing its phase: the first half of the step's own orders as a draft, its check and
    // every unit's options after it.
    const draft = draftOf(step.submission);
    if (draft !== undefined) {
      result.drafts++;
      const read = (s: S) => system.parse(s, step.side, draft);
      compare(`the draft ${JSON.stringify(draft).slice(0, 200)}`, (s) => {
        const p = read(s);
        return JSON.stringify(p.ok ? system.validateDraft(s, step.side, p.value) : p.violations);
      });
      compare("the side's options after the draft", (s) => {
        const p = read(s);
        return p.ok ? JSON.stringify(system.sideOptions(s, step.side, p.value)) : 'not read';
      });
      for (const id of units)
        compare(`options of ${id} after the draft`, (s) => {
          const p = read(s);
          return p.ok ? JSON.stringify(system.options(s, step.side, id, p.value)) : 'not read';
        });
    }
    // A spectator sees only what is hidden from nobody: less than the side, so no more of the difference.
    compare('the spectator view', (s) => JSON.stringify(system.view(s, { kind: 'spectator' })));
    // Carried out, an accepted probe may tell what it met, but never name a unit while it is hidden.
    accepted.forEach((raw, n) => {
      const named = safely((s) => namesHidden(system, s, step.side, raw, n))(step.state);
      if (named !== '') result.leaks.push(`${step.label}, carrying out ${JSON.stringify(raw).slice(0, 300)}: ${named}`);
    });
    const own = JSON.stringify(step.submission);
    // What stands in an off-map box (the squad pool, the split platoons) follows from public events
    // (each split and merge names its counters): a twin that changes it is one no side could hold.
    const onMap = (t: Twin<S>) => Object.entries(t.state.units).every(([id, u]) => u === step.state.units[id] || (u.loc.at !== 'box' && step.state.units[id]?.loc.at !== 'box'));
    const report = (line: string) => {
      if (!seen.has(line)) {
        seen.add(line);
        result.leaks.push(line);
      }
    };
    // Carried out, the same orders read the same to their side in every state it cannot tell apart.
    accepted.slice(0, opts.carried ?? accepted.length).forEach((raw, n) => {
      const forced = JSON.stringify(raw) === own ? (step.dice ?? []) : [];
      compareRuns(system, step.state, step.side, raw, forced, opts.seed + n, twins.filter(onMap).map((t) => keepingStanding(step.state, t)), [step.side, null], result, (t, line) => report(`${step.label}, carrying out ${JSON.stringify(raw).slice(0, 200)}, ${t.swapped}: ${line}`));
    });
    // And to the other sides, in every state they cannot tell apart where the orders mean the same:
    // the units they name and their side's own secrets left as they are.
    if (step.submission !== undefined && accepted[0] === step.submission)
      for (const other of Object.keys(step.state.sides).filter((x) => x !== step.side)) {
        const theirView = (s: S) => JSON.stringify(system.view(s, { kind: 'side', side: other }));
        const named = Object.keys(step.state.units).filter((id) => own.includes(JSON.stringify(id)));
        const same = (t: Twin<S>) => t.kind !== 'secrets' && onMap(t) && named.every((id) => JSON.stringify(t.state.units[id]) === JSON.stringify(step.state.units[id]));
        const theirs = twinsOf(step.state, other, theirView, opts.maxTwins * 2).filter(same).slice(0, opts.maxTwins);
        compareRuns(system, step.state, step.side, step.submission, step.dice ?? [], opts.seed, theirs, [other, null], result, (t, line) => report(`${step.label}, ${other} reading ${step.side}'s submission, ${t.swapped}: ${line}`));
      }
  }
  return result;
}

/** Carries `raw` out in `state` and in each twin that accepts it too, and compares what each reader reads (blind-outcomes.ts). */
function compareRuns<S extends GameState>(
  system: GameSystem<S>,
  state: S,
  side: SideId,
  raw: RawSubmission,
  forced: readonly number[],
  seed: number,
  twins: readonly Twin<S>[],
  readers: readonly (SideId | null)[],
  result: BlindResult,
  leak: (t: Twin<S>, line: string) => void,
): void {
  if (twins.length === 0) return;
  const base = carryOut(system, state, side, raw, forced, seed);
  if (base === null) return;
  for (const t of twins) {
    const run = carryOut(system, t.state, side, raw, forced, seed);
    if (run === null) continue;
    for (const reader of readers) {
      result.outcomes++;
      const parted = partingLeak(base, run, reader);
      if (parted !== '') leak(t, `${reader ?? 'a spectator'} reads ${parted}`);
    }
  }
}

/**
 * The units `side` read of in the events of `raw` carried out while they were hidden from it both
 * before and after the event that named them ('' when none). A unit seen landing and then sent
 * back aboard was in sight when each event named it; one named while under a "?" throughout was not.
 */
function namesHidden<S extends GameState>(system: GameSystem<S>, state: S, side: SideId, raw: RawSubmission, seed: number): string {
  const parsed = system.parse(state, side, raw);
  if (!parsed.ok) return '';
  const hiddenIn = (s: S) => new Set(Object.values(s.units).filter((u) => concealedFrom(s, u).includes(side)).map((u) => u.id));
  const out: string[] = [];
  let before = state;
  let hiddenBefore = hiddenIn(before);
  for (const e of system.resolve(state, side, parsed.value, new SeededDice(seed))) {
    const after = system.evolve(before, e);
    const hiddenAfter = hiddenIn(after);
    const read = JSON.stringify(eventAsSeenBy(e, side));
    for (const id of hiddenBefore) if (hiddenAfter.has(id) && read.includes(JSON.stringify(id))) out.push(`${id} named in ${read.slice(0, 400)}`);
    before = after;
    hiddenBefore = hiddenAfter;
  }
  return out.join('; ');
}

/** Orders a curious player might send: moves into and next to the hidden units, attacks on them, orders naming them, cargo set down next to them. */
function probes(state: GameState, side: SideId, own: RawSubmission | undefined): RawSubmission[] {
  const grid = boardOf(state.scenario).grid;
  const hexOf = (u: UnitState) => (u.loc.at === 'hex' ? grid.indexOf(u.loc.hex) : -1);
  const mine = Object.values(state.units).filter((u) => u.side === side && hexOf(u) >= 0);
  const theirs = Object.values(state.units).filter((u) => u.side !== side && hexOf(u) >= 0);
  const near = (u: UnitState, d: number) => theirs.filter((t) => grid.distance(hexOf(u), hexOf(t)) <= d);
  const out: RawSubmission[] = [];
  const orders = (...o: JsonObject[]) => out.push({ kind: 'orders', orders: o });
  if (own !== undefined) out.push(own);
  for (const u of mine) {
    for (const t of near(u, 3)) {
      const path = towards(grid, hexOf(u), hexOf(t));
      orders({ kind: 'move', unit: u.id, path: path.map((i) => grid.label(i)) });
      if (path.length > 1) orders({ kind: 'move', unit: u.id, path: path.slice(0, -1).map((i) => grid.label(i)) });
      orders({ kind: 'attack', attackers: [{ unit: u.id }], target: grid.label(hexOf(t)) });
      orders({ kind: 'move', unit: t.id, path: [grid.label(hexOf(u))] });
      orders({ kind: 'attack', attackers: [{ unit: t.id }], target: grid.label(hexOf(u)) });
      orders({ kind: 'unload', unit: u.id, hex: grid.label(hexOf(t)) });
    }
    // Cargo set down next to its carrier, where it may meet what is hidden (anti-landing fire, traps).
    if (near(u, 2).length > 0)
      for (const c of Object.values(state.units))
        if (c.loc.at === 'carried' && c.loc.by === u.id)
          for (let d = 0; d < 6; d++) {
            const n = grid.neighbour(hexOf(u), d);
            if (n >= 0) orders({ kind: 'unload', unit: c.id, hex: grid.label(n) });
          }
  }
  return out;
}

/** The hexes a greedy walk from `from` to `to` enters, `to` included. */
function towards(grid: ReturnType<typeof boardOf>['grid'], from: number, to: number): number[] {
  const path: number[] = [];
  let at = from;
  while (at !== to && path.length < 12) {
    let next = -1;
    for (let d = 0; d < 6; d++) {
      const n = grid.neighbour(at, d);
      if (n >= 0 && (next < 0 || grid.distance(n, to) < grid.distance(next, to))) next = n;
    }
    if (next < 0) break;
    at = next;
    path.push(at);
  }
  return path;
}
