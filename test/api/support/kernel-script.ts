import { kernelTestEntry } from '../../support/games-harness';
import type { GameScript } from './game-script';

/**
 * A whole game of the kernel test scenario, for the API tests: sealed setup, three full turns
 * with movement, combat (B's M48 fires at A's landed AAV), a reaction (B answers A's landing),
 * and the end at the turn limit (B wins). Every order is legal whatever the dice do.
 */
export const kernelScript: GameScript = {
  entry: kernelTestEntry,
  scenarioId: 'kernel-test',
  creatorSide: 'A',
  joinerSide: 'B',
  steps: [
    { side: 'A', kind: 'orders', note: 'A sets up (sealed)', orders: [{ kind: 'place', unit: 'a-ship', hex: '0105' }] },
    {
      side: 'B',
      kind: 'orders',
      note: 'B sets up, two units hidden; both setups are revealed',
      orders: [
        { kind: 'place', unit: 'b-inf-1', hex: '0706', hidden: true },
        { kind: 'place', unit: 'b-inf-2', hex: '1007', hidden: true },
        { kind: 'place', unit: 'b-inf-3', hex: '1004' },
        { kind: 'place', unit: 'b-aa', hex: '1105' },
        { kind: 'place', unit: 'b-m48', hex: '0504' },
        { kind: 'place', unit: 'b-boat', hex: '0306' },
      ],
      expect: { turn: 1, phase: 'a-move', acting: ['A'] },
    },
    { side: 'A', kind: 'orders', note: 'turn 1: the ship closes in and unloads an AAV', orders: [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }] },
    { side: 'A', kind: 'orders', note: 'turn 1: A does not attack', orders: [] },
    { side: 'B', kind: 'orders', note: 'turn 1: B holds', orders: [] },
    { side: 'B', kind: 'orders', note: 'turn 1: B does not attack', orders: [], expect: { turn: 2, phase: 'a-move' } },
    { side: 'A', kind: 'orders', note: 'turn 2: the AAV lands next to the M48, which pauses for B', orders: [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }], expect: { mode: 'reaction', acting: ['B'] } },
    { side: 'B', kind: 'reaction', note: 'turn 2: B holds its fire', orders: { attackers: [] }, expect: { phase: 'a-attack', mode: 'sequential' } },
    { side: 'A', kind: 'orders', note: 'turn 2: A does not attack', orders: [] },
    { side: 'B', kind: 'orders', note: 'turn 2: B holds', orders: [] },
    { side: 'B', kind: 'orders', note: 'turn 2: the M48 attacks the AAV (combat, dice)', orders: [{ kind: 'attack', attackers: [{ unit: 'b-m48' }], target: '0404' }], expect: { turn: 3, phase: 'a-move' } },
    { side: 'A', kind: 'orders', note: 'turn 3: the ship moves', orders: [{ kind: 'move', unit: 'a-ship', path: ['0104'] }] },
    { side: 'A', kind: 'orders', note: 'turn 3: A does not attack', orders: [] },
    { side: 'B', kind: 'orders', note: 'turn 3: B holds', orders: [] },
    { side: 'B', kind: 'orders', note: 'turn 3: B does not attack; the turn limit ends the game', orders: [] },
  ],
  illegal: { afterStep: 2, side: 'A', orders: [{ kind: 'unload', unit: 'a-tank', hex: '0404' }], ruleId: 'GT-6F.1' },
  optionsProbe: [
    { afterStep: 2, side: 'A', unitId: 'a-ship', expectMoves: true },
    { afterStep: 10, side: 'B', unitId: 'b-m48', targetHex: '0404', expectAttack: true },
  ],
  secrets: { fromStep: 2, viewer: 'A', strings: ['b-inf-1', 'b-inf-2'] },
  finish: { kind: 'victory', winner: 'B' },
  expectEvents: ['UnitPlaced', 'UnitMoved', 'ReactionRequested', 'ReactionAnswered', 'AttackResolved', 'DiceRolled', 'GameEnded'],
  resign: { afterStep: 6, side: 'A', winner: 'B' },
};
