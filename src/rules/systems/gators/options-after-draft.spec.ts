import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { Submission } from '../../engine/kit/types';
import { UnitOptions } from '../../engine/types';
import { JsonObject } from '../../model/json';
import { GState } from './ext';
import { gators } from './index';
import { orderFor } from './examples/option-order';
import { replayCampaign } from './examples/replay';

/**
 * A client writing a phase asks for a unit's options after the orders it has already drafted
 * (options(..., draft)). Along the scripted campaign (examples/campaign.json), at each step where a
 * side sends two or more orders, the first half of them is the draft, and for every unit of that
 * side: each option after the draft, sent after the draft's orders, must add no violation to what
 * the draft alone gets (a rule on the whole submission may still ask for orders to come); and each
 * option offered before the draft but gone after it (a move to a hex, an attack on one, an action
 * with its detail) must be refused after the draft: what the draft used up (the unit that moved,
 * the room in a hex, a marker) is really gone. Besides what the draft changed on the board, the
 * checks of the whole submission count: a ship's move offered before the draft's other orders is
 * gone after them (GT-5.2, ships first).
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));

/** What parse and validate say of a submission of these orders. */
function violations(state: GState, side: string, orders: readonly JsonObject[]): string[] {
  const p = gators.parse(state, side, { kind: 'orders', orders });
  const v = p.ok ? gators.validate(state, side, p.value) : p.violations;
  return v.map((x) => `${x.ruleId} ${x.code}: ${x.message}`);
}

/** Each option of a unit as [key, order]: a move by its hex, an attack by its target, an action by its detail. */
function offered(unit: string, o: UnitOptions): Map<string, JsonObject | null> {
  return new Map([
    ...o.moves.map((m): [string, JsonObject | null] => [`move to ${m.hex}`, orderFor(unit, 'move', m)]),
    ...o.attacks.map((a): [string, JsonObject | null] => [`attack ${a.targetHex}`, orderFor(unit, 'attack', a)]),
    ...(o.other ?? []).map((x): [string, JsonObject | null] => [`${x.action} ${JSON.stringify(x.detail)}`, orderFor(unit, 'other', x)]),
  ]);
}

interface Finding {
  readonly where: string;
  readonly unit: string;
  readonly option: string;
  readonly problem: string;
}

const tried = { after: 0, gone: 0, drafts: 0, changed: 0 };

function check(state: GState, side: string, orders: readonly JsonObject[], where: string): Finding[] {
  const out: Finding[] = [];
  const parsed = gators.parse(state, side, { kind: 'orders', orders });
  if (!parsed.ok) return [{ where, unit: '-', option: 'draft', problem: `parse: ${JSON.stringify(parsed.violations)}` }];
  const draft = parsed.value as Submission & { kind: 'orders' };
  const refused = gators.validateDraft(state, side, draft);
  if (refused.length > 0) return [{ where, unit: '-', option: 'draft', problem: `validateDraft: ${JSON.stringify(refused)}` }];
  tried.drafts++;
  const baseline = new Set(violations(state, side, draft.orders));
  const added = (order: JsonObject) => violations(state, side, [...draft.orders, order]).filter((v) => !baseline.has(v));
  for (const u of Object.values(state.units).filter((x) => x.side === side)) {
    const before = gators.options(state, side, u.id);
    const after = gators.options(state, side, u.id, draft);
    if (Array.isArray(before) || Array.isArray(after)) {
      out.push({ where, unit: u.id, option: '-', problem: 'options refused for an own unit' });
      continue;
    }
    const now = offered(u.id, after);
    if (JSON.stringify(before) !== JSON.stringify(after)) tried.changed++;
    for (const [option, order] of now) {
      if (order === null) {
        out.push({ where, unit: u.id, option, problem: 'no order is known for this option' });
        continue;
      }
      tried.after++;
      const v = added(order);
      if (v.length > 0) out.push({ where, unit: u.id, option, problem: `offered after the draft but refused: ${v.join(' | ')}` });
    }
    for (const [option, order] of offered(u.id, before)) {
      if (now.has(option) || order === null) continue;
      tried.gone++;
      if (added(order).length === 0) out.push({ where, unit: u.id, option, problem: 'gone after the draft but still accepted' });
    }
  }
  return out;
}

describe('Gators! options after a draft agree with validate', () => {
  const findings: Finding[] = [];
  replayCampaign(scenario).forEach((p, k) => {
    const sub = p.step.submission;
    if (sub?.kind !== 'orders' || !Array.isArray(sub.orders) || sub.orders.length < 2) return;
    const orders = sub.orders as JsonObject[];
    findings.push(...check(p.before, p.step.side, orders.slice(0, Math.ceil(orders.length / 2)), `step ${k} (${p.step.phase})`));
  });

  it('tries many drafts, options after them and options they take away; drafts change options', () => {
    expect(tried.drafts).toBeGreaterThanOrEqual(17);
    expect(tried.after).toBeGreaterThan(10_000);
    expect(tried.gone).toBeGreaterThan(10_000);
    expect(tried.changed).toBeGreaterThan(200);
  });

  it('every option after a draft is accepted after it, and every option the draft takes away is refused after it', () => {
    expect(findings.map((f) => `${f.where} ${f.unit} ${f.option}: ${f.problem}`)).toEqual([]);
  });
});
