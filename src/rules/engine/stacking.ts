import { GameState, UnitState } from '../model/state';
import { UnitType } from '../model/scenario';
import { Board, inArea } from './board';
import { hasTag, typeOf } from './queries';
import { unitIndex } from './unit-index';
import { assertNever } from './assert-never';

/**
 * The units that count for stacking among `units` standing in a hex: they
 * themselves and the guns they tow (a towed gun is still in the hex, GT-6D.1
 * (3), Q-GT-26); cargo does not count.
 */
export function withTowed(state: GameState, units: readonly UnitState[]): UnitState[] {
  const x = unitIndex(state);
  const ids = new Set(units.map((u) => u.id));
  const towed = new Set<UnitState>();
  for (const u of units) for (const g of x.towed.get(u.id) ?? []) if (!ids.has(g.id)) towed.add(g);
  return [...units, ...[...towed].sort((a, b) => x.pos.get(a.id)! - x.pos.get(b.id)!)];
}

/** A side's stack in a hex (with towed guns), leaving out `except` (the units about to move away). */
export function stackAt(state: GameState, side: string, hex: string, except: ReadonlySet<string> = new Set()): UnitState[] {
  const standing = (unitIndex(state).standing.get(hex) ?? []).filter((u) => u.side === side && !except.has(u.id));
  return withTowed(state, standing).filter((u) => !except.has(u.id));
}

/** Types of a side's stack in a hex (with towed guns), leaving out `except` (the units about to move away). */
export function stackTypesAt(state: GameState, side: string, hex: string, except: ReadonlySet<string> = new Set()): UnitType[] {
  return stackAt(state, side, hex, except).map((u) => typeOf(state, u));
}

export interface StackProblem {
  readonly ruleId: string;
  readonly message: string;
}

/**
 * Whether units of `side` with these types may end a move or placement
 * together in hex `at` (GT-6D.1). Carried and towed units are not passed in:
 * they do not count. Exceptions are data (rules.json stacking.exceptions).
 */
export function stackProblem(state: GameState, board: Board, side: string, at: number, stack: readonly UnitType[]): StackProblem | null {
  const rule = state.scenario.rules.stacking;
  if (rule.limit === null) return null;
  const counting = stack.filter((t) => !hasTag(t, rule.exemptTags) && !exemptIn(state, board, at, t));
  if (counting.length <= rule.limit) return null;
  for (const e of rule.exceptions) {
    switch (e.kind) {
      case 'combination':
        if (matchesCombination(counting, e.members)) return null;
        break;
      case 'overlay': {
        const bit = board.overlayIds.indexOf(e.overlay);
        if (bit < 0 || (board.overlays[at]! & (1 << bit)) === 0) break;
        if (e.friendlyOnly && !friendlyOverlay(state, board, e.overlay, at, side)) break;
        if (counting.every((t) => hasTag(t, e.tags))) return null;
        break;
      }
      case 'area':
        break;
      default:
        assertNever(e, 'stacking exception');
    }
  }
  return { ruleId: rule.ruleId, message: `${counting.length} units may not stack here (limit ${rule.limit})` };
}

/**
 * The most counters a stack of `side` may hold in hex `at` by the data (GT-6D.1), whatever stands
 * there: the limit, the largest combination an exception allows, as many of the side's counters
 * (by its order of battle) as an overlay exception lets in, plus those that do not count. It reads
 * only public facts, so it bounds what a marker may hide without telling what it does.
 */
export function stackCapacity(state: GameState, board: Board, side: string, at: number): number {
  const rule = state.scenario.rules.stacking;
  const ofTags = (tags: readonly string[]) => {
    let n = 0;
    for (const u of state.scenario.oob.units) if (u.side === side && hasTag(state.scenario.units.types[u.type]!, tags)) n += u.count ?? 1;
    return n;
  };
  if (rule.limit === null) return ofTags(['*']);
  let most = rule.limit;
  let exempt = rule.exemptTags.length === 0 ? 0 : ofTags(rule.exemptTags);
  for (const e of rule.exceptions) {
    switch (e.kind) {
      case 'combination':
        most = Math.max(most, e.members.reduce((n, m) => n + m.max, 0));
        break;
      case 'overlay': {
        const bit = board.overlayIds.indexOf(e.overlay);
        if (bit >= 0 && (board.overlays[at]! & (1 << bit)) !== 0 && (!e.friendlyOnly || friendlyOverlay(state, board, e.overlay, at, side))) most = Math.max(most, ofTags(e.tags));
        break;
      }
      case 'area':
        if (inArea(board, e.area, at)) exempt += ofTags(e.tags);
        break;
      default:
        assertNever(e, 'stacking exception');
    }
  }
  return most + exempt;
}

/** Whether a unit of this type stands outside the limit in hex `at` by an `area` exception (Q-GT-46). */
function exemptIn(state: GameState, board: Board, at: number, t: UnitType): boolean {
  for (const e of state.scenario.rules.stacking.exceptions) if (e.kind === 'area' && hasTag(t, e.tags) && inArea(board, e.area, at)) return true;
  return false;
}

type Member = { readonly tags: readonly string[]; readonly min: number; readonly max: number };

function matchesCombination(stack: readonly UnitType[], members: readonly Member[]): boolean {
  const counts = members.map(() => 0);
  for (const t of stack) {
    const k = members.findIndex((m, i) => hasTag(t, m.tags) && counts[i]! < m.max);
    if (k < 0) return false;
    counts[k]!++;
  }
  return members.every((m, i) => counts[i]! >= m.min);
}

/** Airfields belong to their owner (GT-6D.1 (4)); a system may record captures in side public state. */
function friendlyOverlay(state: GameState, board: Board, overlay: string, at: number, side: string): boolean {
  if (overlay !== 'airfield') return true;
  const k = board.airfieldOf[at]!;
  if (k < 0) return false;
  const af = state.scenario.map.airfields[k]!;
  const captured = state.sides[side]?.public['airfields'];
  if (Array.isArray(captured) && captured.includes(af.id)) return true;
  const lost = Object.values(state.sides).some(
    (s) => s.id !== side && Array.isArray(s.public['airfields']) && (s.public['airfields'] as readonly unknown[]).includes(af.id),
  );
  return af.owner === side && !lost;
}
