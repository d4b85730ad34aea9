import { commitmentOf, rollFromSeed } from './server-dice';

export interface DiceReport {
  ok: boolean;
  rolls: number;
  problems: string[];
}

interface ExportedEvent {
  version: number;
  type: string;
  data: unknown;
}

/**
 * Re-derives every roll of an exported game from its revealed seed: the seed must match the
 * commitment published at creation, the rolls must be numbered 1, 2, 3, ... with none missing,
 * and each value must be what the seed gives for its number and die.
 */
export function verifyDice(exported: unknown): DiceReport {
  const problems: string[] = [];
  const doc = exported as { format?: string; dice?: { seed?: string | null; seedCommitment?: string }; events?: ExportedEvent[] };
  if (doc?.format !== 'fieldpost.game-export') return { ok: false, rolls: 0, problems: ['not a Fieldpost game export (format)'] };
  const seed = doc.dice?.seed;
  if (!seed || !/^[0-9a-f]{64}$/.test(seed)) return { ok: false, rolls: 0, problems: ['the export has no revealed seed: the game has not ended'] };
  if (commitmentOf(seed) !== doc.dice?.seedCommitment) problems.push('the revealed seed does not match the published commitment');
  const revealed = (doc.events ?? []).find((e) => e.type === 'SeedRevealed');
  if (revealed && (revealed.data as { seed?: string }).seed !== seed) problems.push(`event ${revealed.version} reveals a different seed`);
  const created = (doc.events ?? []).find((e) => e.type === 'GameCreated');
  if (created && (created.data as { seedCommitment?: string }).seedCommitment !== doc.dice?.seedCommitment) problems.push('GameCreated published a different commitment');

  let expected = 1;
  let rolls = 0;
  for (const e of doc.events ?? []) {
    if (e.type !== 'DiceRolled') continue;
    rolls += 1;
    const d = e.data as { n: number; sides: number; value: number; purpose: string };
    if (d.n !== expected) problems.push(`event ${e.version}: roll number ${d.n}, expected ${expected}`);
    expected = d.n + 1;
    const value = rollFromSeed(seed, d.n, d.sides);
    if (value !== d.value) problems.push(`event ${e.version}: roll ${d.n} (d${d.sides}, ${d.purpose}) is ${d.value}, the seed gives ${value}`);
  }
  return { ok: problems.length === 0, rolls, problems };
}
