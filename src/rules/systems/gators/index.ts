import { JsonObject } from '../../model/json';
import { oddsAttack } from '../../engine/combat/odds-step';
import { assertNever } from '../../engine/assert-never';
import { defineSystem } from '../../engine/kit/define-system';
import { perScenario } from '../../engine/kit/per-scenario';
import { PhaseKind, Submission, SystemSpec } from '../../engine/kit/types';
import { Violation } from '../../engine/types';
import { GameState } from '../../model/state';
import { checkGatorsScenario } from './check-scenario';
import { combineEvolve, combineHooks } from './combine';
import { CombinedHooks, GatorsFeature, Handler, PHASE_KINDS, PhaseKindId } from './feature';
import { FEATURES, featuresFor } from './features';
import { GatorsExt, initialExt } from './ext';
import { withAttackReaction, withFireFromAboardShown } from './orders/attack';
import { movementOrders } from './orders/movement';
import { resolveSealedInOrder } from './phases/setup';
import { gatorsVictory } from './victory';

/** The kernel orders every Gators! phase kind has before the features add theirs. */
function coreOrders(kind: PhaseKindId, h: CombinedHooks): Handler[] {
  switch (kind) {
    case 'movement':
      return movementOrders(h);
    case 'combat':
      return [withFireFromAboardShown(withAttackReaction((odds) => oddsAttack<GatorsExt>(odds), h.odds, h.attackReaction), h.odds)];
    case 'setup':
    case 'ship-placement':
    case 'launch':
    case 'recovery':
    case 'guerrillas':
    case 'end-of-turn':
      return [];
    default:
      return assertNever(kind, 'phase kind');
  }
}

/** Builds one phase kind from the core orders and every feature's contribution. */
function phaseKind(kind: PhaseKindId, features: readonly GatorsFeature[], h: CombinedHooks): PhaseKind<GatorsExt> {
  const parts = features.flatMap((f) => (f.phases?.[kind] ? [f.phases[kind]] : []));
  const orders = [...coreOrders(kind, h), ...parts.flatMap((p) => p.orders?.(h) ?? [])];
  const kinds = orders.map((o) => o.kind);
  const dup = kinds.find((k, i) => kinds.indexOf(k) !== i);
  if (dup !== undefined) throw new Error(`order kind "${dup}" is defined twice in phase kind ${kind}`);
  const onEnter = parts.flatMap((p) => (p.onEnter ? [p.onEnter] : []));
  const auto = parts.flatMap((p) => (p.auto ? [p.auto] : []));
  const afterSealed = parts.flatMap((p) => (p.afterSealed ? [p.afterSealed] : []));
  return {
    orders,
    validateSubmission: (before, after, side, list: readonly JsonObject[]) => {
      const out: Violation[] = [];
      for (const p of parts) for (const v of p.validateSubmission?.(before, after, side, list, h) ?? []) out.push(v);
      return out;
    },
    onEnter: (ctx) => onEnter.forEach((f) => f(ctx)),
    auto: (ctx) => auto.forEach((f) => f(ctx)),
    resolveSealed: resolveSealedInOrder(orders),
    afterSealed: (ctx) => afterSealed.forEach((f) => f(ctx)),
  };
}

/** The Gators! system spec from a list of features (FEATURES by default; tests may pass their own). */
export function gatorsSpec(features: readonly GatorsFeature[] = FEATURES): SystemSpec<GatorsExt> {
  const h = combineHooks(features);
  const phases = Object.fromEntries(PHASE_KINDS.map((k) => [k, phaseKind(k, features, h)])) as Record<PhaseKindId, PhaseKind<GatorsExt>>;
  const reactions = Object.assign({}, ...features.map((f) => f.reactions ?? {})) as NonNullable<SystemSpec<GatorsExt>['reactions']>;
  const views = features.flatMap((f) => (f.view ? [f.view.bind(f)] : []));
  return {
    id: 'gators',
    initialExt,
    phases,
    reactions,
    evolve: combineEvolve(features),
    records: features.flatMap((f) => f.records ?? []),
    view: (state, viewer, base) => views.reduce((v, f) => f(state, viewer, v), base),
    victory: (state: GameState<GatorsExt>) => gatorsVictory(state),
    checkScenario: checkGatorsScenario,
  };
}

/** Every feature on: the spec of a scenario that lists every module (tests read initialExt here). */
export const GATORS_SPEC = gatorsSpec();

/**
 * Gators! as the contract's GameSystem: each scenario gets the features its scenario.json
 * `modules` switch on (features.ts MODULES), built once per set of features.
 */
export const gators = perScenario<GatorsExt, Submission>(
  'gators',
  (s) => featuresFor(s.manifest.modules).map((f) => f.id).join(' '),
  (s) => defineSystem(gatorsSpec(featuresFor(s.manifest.modules))),
);

export type { GatorsExt } from './ext';
export { FEATURES, GATORS_MODULES } from './features';
