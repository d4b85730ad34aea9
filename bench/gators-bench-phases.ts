import { ForcedDice } from '../src/rules/dice/forced-dice';
import type { GameSystem } from '../src/rules/engine/types';

export type Orders = Array<Record<string, unknown>>;

export interface PlannedPhases<S> {
  /** The state at the start of P1's movement phase, where `moves` is submitted. */
  readonly start: S;
  readonly moves: Orders;
  /** Submitted in the combat phase that follows the moves. */
  readonly combat: Orders;
}

/**
 * Plans the benchmark's two phases on the pure engine (shared by bench:submit and bench:engine):
 * a legal one-hex move for each mover to a hex no other mover takes, then one attack per
 * attacker; both are checked by submitting them once, so a benchmark never times a rejection.
 */
export function plan<S>(system: GameSystem<S>, scenario: unknown, movers: string[], attacks: Array<{ attacker: string; target: string }>): PlannedPhases<S> {
  const apply = (state: S, side: string, orders: unknown): S => {
    const p = system.parse(state, side, { kind: 'orders', orders });
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    const v = system.validate(state, side, p.value);
    if (v.length) throw new Error(JSON.stringify(v.slice(0, 5)));
    return system.resolve(state, side, p.value, new ForcedDice(Array(200).fill(3))).reduce((s, e) => system.evolve(s, e), state);
  };
  let state: S = system.start(scenario, { sides: ['P1', 'P2'] }).reduce<S | undefined>((s, e) => system.evolve(s, e), undefined)!;
  state = apply(state, 'P1', []);
  state = apply(state, 'P1', []);
  const reserved = new Set<string>();
  const moves: Orders = [];
  for (const unit of movers) {
    const o = system.options(state, 'P1', unit);
    if (Array.isArray(o)) throw new Error(`${unit}: ${JSON.stringify(o)}`);
    const to = o.moves.find((m) => m.path.length === 1 && !reserved.has(m.hex));
    if (!to) throw new Error(`${unit} has nowhere to go`);
    reserved.add(to.hex);
    moves.push({ kind: 'move', unit, path: to.path });
  }
  const combat = attacks.map((a) => ({ kind: 'attack', attackers: [{ unit: a.attacker }], target: a.target }));
  apply(apply(state, 'P1', moves), 'P1', combat);
  return { start: state, moves, combat };
}
