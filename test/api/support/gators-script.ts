import { gatorsEntry, gatorsExample, gatorsTurn1 } from '../../support/gators-game';
import type { GameScript, ScriptStep } from './game-script';

/**
 * A Gators! game of the real Unnarstan scenario for the API tests, from the rules engine's
 * worked example (src/rules/systems/gators/examples): both sealed setups (P2's with its secret
 * breakdown roll and camouflaged units), the ship placement, turn 1 as in the example (the
 * ships close in, a P2 jeep drives), turns 2 and 3 with every phase submitted empty, then P1
 * resigns. Every order is legal whatever the breakdown roll (jeeps never break down).
 *
 * No combat and no reaction in it: the worked example reaches no beach by turn 3. The scripted
 * campaign (examples/campaign.json) plays them through the API in ../gators-campaign.e2e-spec.ts.
 */
const turn = (n: number): ScriptStep[] => {
  const subs = gatorsTurn1().submissions;
  return subs.map((s, i) => ({
    side: s.side,
    kind: 'orders' as const,
    orders: n === 1 ? s.orders : [],
    note: `turn ${n}: ${s.phase}`,
    ...(i === subs.length - 1 ? { expect: { turn: n + 1, phase: 'p1-launch', acting: ['P1'] } } : {}),
  }));
};

const hidden = gatorsExample('setup-p2.json').orders.filter((o) => o['hidden']).map((o) => String(o['unit']));

export const gatorsScript: GameScript = {
  entry: gatorsEntry,
  scenarioId: 'gators-unnarstan',
  creatorSide: 'P1',
  joinerSide: 'P2',
  steps: [
    { side: 'P1', kind: 'orders', note: 'P1 sets up (sealed)', orders: gatorsExample('setup-p1.json').orders },
    { side: 'P2', kind: 'orders', note: 'P2 sets up, camouflaged units and the secret breakdown roll', orders: gatorsExample('setup-p2.json').orders },
    { side: 'P1', kind: 'orders', note: 'P1 places its ships', orders: gatorsExample('ships.json').orders, expect: { turn: 1, phase: 'p1-launch', acting: ['P1'] } },
    ...turn(1),
    ...turn(2),
    ...turn(3),
  ],
  // In turn 1's movement phase, the LHD (2 MP) cannot sail five hexes.
  illegal: { afterStep: 5, side: 'P1', orders: [{ kind: 'move', unit: 'p1-lhd', path: ['0910', '0810', '0710', '0610', '0510', '0410'] }], ruleId: 'GT-6A.1' },
  optionsProbe: [{ afterStep: 5, side: 'P1', unitId: 'p1-lhd', expectMoves: true }],
  secrets: { fromStep: 2, viewer: 'P1', strings: [...hidden, '"broken"', 'breakdown roll'] },
  finish: { kind: 'resign', side: 'P1', winner: 'P2' },
  expectEvents: ['UnitPlaced', 'UnitMoved', 'DiceRolled', 'Resigned', 'GameEnded'],
  resign: { afterStep: 3, side: 'P1', winner: 'P2' },
};
