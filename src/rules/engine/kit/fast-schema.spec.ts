import { join } from 'node:path';
import { z } from 'zod';
import { loadCases } from '../../../../test/support/rule-cases';
import { loadScenario } from '../../../scenarios/load-scenario';
import { JsonObject } from '../../model/json';
import { GATORS_SPEC, gators } from '../../systems/gators';
import { CaseTarget } from '../../testing/case-runner';
import { caseSteps, lcg, mutate } from '../../testing/order-fuzz';
import { testScenario } from '../../testing/scenario-files';
import { testSpec, testSystem } from '../../testing/test-system';
import { fastSchema } from './fast-schema';
import { SystemSpec } from './types';

/**
 * parse() reads orders through fastSchema (z.compile) instead of the schemas themselves. That
 * is only sound if both give the same answer for any input: the same value, keys in the same
 * order, or the same issues (messages, paths, the rule a custom issue names). So every order
 * of every rule case, and random breakages of it (order-fuzz.ts), goes through each order
 * schema of the system both ways.
 */
function compareAll<X extends JsonObject>(spec: SystemSpec<X>, target: CaseTarget<X>, cases: Array<{ file: string; json: unknown }>, perOrder: number) {
  const schemas = [...new Set(Object.values(spec.phases).flatMap((p) => (p.orders ?? []).map((h) => h.schema as z.ZodType)))];
  const rnd = lcg(20261207);
  const differ: string[] = [];
  let compared = 0;
  let accepted = 0;
  for (const { file, submission, units } of caseSteps(target, cases)) {
    if (submission.kind !== 'orders') continue;
    const raw = submission.orders as unknown;
    const items: unknown[] = Array.isArray(raw) ? raw : ((raw as { orders?: unknown[] }).orders ?? []);
    for (const item of items) {
      for (let n = 0; n <= perOrder; n++) {
        // Orders come as JSON: a breakage that sets a key to undefined would not survive copyOf.
        const input = copyOf(n === 0 ? item : mutate(item, units, rnd));
        for (const schema of schemas) {
          const a = schema.safeParse(input);
          const b = fastSchema(schema).safeParse(copyOf(input));
          compared++;
          if (a.success) accepted++;
          if (!same(a, b)) differ.push(`${file}: ${JSON.stringify(input).slice(0, 200)} :: ${show(a)} :: ${show(b)}`);
        }
      }
    }
  }
  return { compared, accepted, differ: differ.slice(0, 10) };
}

// Each parse gets its own copy, so that neither can answer from an object the other made. Not
// structuredClone: under jest its objects are of another realm, which zod's messages name ("Object").
function copyOf(x: unknown): unknown {
  return x !== null && typeof x === 'object' ? JSON.parse(JSON.stringify(x)) : x;
}

const show = (r: z.ZodSafeParseResult<unknown>) => JSON.stringify(r.success ? r.data : r.error.issues.map((i) => ({ ...i, rule: String((i as { params?: { ruleId?: unknown } }).params?.ruleId) }))).slice(0, 500);

function same(a: z.ZodSafeParseResult<unknown>, b: z.ZodSafeParseResult<unknown>): boolean {
  if (a.success !== b.success) return false;
  if (a.success && b.success) return JSON.stringify(a.data) === JSON.stringify(b.data) && Object.keys(a.data as object).join() === Object.keys(b.data as object).join();
  const ia = a.error!.issues;
  const ib = b.error!.issues;
  const ruleOf = (i: z.core.$ZodIssue) => (i.code === 'custom' ? (i.params as { ruleId?: unknown } | undefined)?.ruleId : undefined);
  return JSON.stringify(ia) === JSON.stringify(ib) && ia.every((x, k) => ruleOf(x) === ruleOf(ib[k]!));
}

describe('order schemas through z.compile', () => {
  it('answer as the schemas do, kernel cases and their breakages', () => {
    const r = compareAll(testSpec, { system: testSystem, scenario: testScenario(), initialExt: testSpec.initialExt }, loadCases(join(__dirname, '../cases')), 10);
    expect(r.differ).toEqual([]);
    expect(r.accepted).toBeGreaterThan(500);
    expect(r.compared).toBeGreaterThan(10_000);
  });

  it('answer as the schemas do, Gators! cases and their breakages', () => {
    const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
    const r = compareAll(GATORS_SPEC, { system: gators, scenario, initialExt: GATORS_SPEC.initialExt }, loadCases(join(__dirname, '../../systems/gators/cases')), 3);
    expect(r.differ).toEqual([]);
    expect(r.accepted).toBeGreaterThan(1_000);
    expect(r.compared).toBeGreaterThan(50_000);
  });
});
