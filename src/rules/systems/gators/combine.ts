import { Json } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { SystemEvolve } from '../../engine/evolve';
import { ResolveContext, Resume } from '../../engine/kit/types';
import { Block, MoveHooks } from '../../engine/movement/context';
import { OddsHooks } from '../../engine/combat/odds-step';
import { MovedInfo, StepReaction } from '../../engine/orders/move';
import { Violation } from '../../engine/types';
import { EventBody } from '../../engine/events';
import { defaultExertsZoc } from '../../engine/zoc';
import { AttackReaction, CombinedHooks, CoreHooks, FeatureMoveHooks, FeatureOddsHooks, GatorsFeature, UnloadInfo } from './feature';
import { GState, GatorsExt } from './ext';
import { stageProxy as proxy } from './stage-proxy';

/** The column shifts and die modifiers of an attack, as the odds hooks give them. */
type Modifiers = ReturnType<NonNullable<OddsHooks['modifiers']>>;

/**
 * Combines the features' hooks into the kernel's hook shapes. The rules of
 * combination are part of the extension API (README.md):
 * ZOC — a unit exerts one if no feature vetoes and either the kernel's
 * can-attack test or some feature's zocCapable says so; blocked hexes —
 * merged; budget — summed; endProblem, moveProblem, attackerProblem — first
 * reason; strength — first defined answer; modifiers — concatenated;
 * adjustResult, adjustEffects, attackerResult — chained; attackerExempt — any; applyResult — first that
 * applies; defender, targetClass, firesAboard — first defined answer; afterMove/afterUnload
 * — every feature in order, each may ask; projectMove — concatenated in feature order;
 * stepReaction, attackReaction — the first feature that asks at a hex / before an attack's die.
 */
export function combineHooks(features: readonly GatorsFeature[]): CombinedHooks {
  const mv = features.flatMap((f) => (f.move ? [f.move] : []));
  const od = features.flatMap((f) => (f.odds ? [f.odds] : []));
  const zocVetoes = mv.filter((h) => h.zocVeto !== undefined);
  const zocCapables = mv.filter((h) => h.zocCapable !== undefined);
  // Each combined hook loops over the features that have it, not over all: most have few, and
  // several are asked per unit, order and hex (a closure and a miss per feature added up).
  const mvWith = <K extends keyof FeatureMoveHooks>(k: K) => mv.filter((h) => h[k] !== undefined) as (FeatureMoveHooks & Required<Pick<FeatureMoveHooks, K>>)[];
  const odWith = <K extends keyof FeatureOddsHooks>(k: K) => od.filter((h) => h[k] !== undefined) as (FeatureOddsHooks & Required<Pick<FeatureOddsHooks, K>>)[];
  const blockers = mvWith('blocked');
  const adjusters = mvWith('budgetAdjust');
  const enders = mvWith('endProblem');
  const moveProblems = mvWith('moveProblem');
  const defenders = odWith('defender');
  const targetClasses = odWith('targetClass');
  const strengths = odWith('strength');
  const attackerProblems = odWith('attackerProblem');
  const modifiers = odWith('modifiers');
  const resultAdjusters = odWith('adjustResult');
  const effectAdjusters = odWith('adjustEffects');
  const attackerResults = odWith('attackerResult');
  const move: MoveHooks = {
    // Loops over the hooks that have one, not closures over all: called per enemy, medium and mover type.
    exertsZoc: (state, enemy, moverType, medium, knownTo) => {
      for (const h of zocVetoes) if (h.zocVeto!(state, enemy, moverType, medium, knownTo ?? null) === true) return false;
      if (defaultExertsZoc(state, enemy, moverType, medium)) return true;
      for (const h of zocCapables) if (h.zocCapable!(state, enemy, moverType, medium) === true) return true;
      return false;
    },
    blocked: (state, mover, board) => {
      const out = new Map<number, Block>();
      // A hex one feature only stops a move in (Block.stops) stays closed when another closes it.
      // forEach, not for-of: no [key, value] pair made per entry (every mover of every state).
      for (const h of blockers)
        h.blocked(state, mover, board).forEach((b, i) => {
          const was = out.get(i);
          if (was === undefined || (was.stops === true && b.stops !== true)) out.set(i, b);
        });
      return out;
    },
    budgetAdjust: (state, mover) => adjusters.reduce((s, h) => s + (h.budgetAdjust(state, mover) ?? 0), 0),
    endProblem: (state, movers, at) => {
      for (const h of enders) {
        const p = h.endProblem(state, movers, at) ?? null;
        if (p !== null) return p;
      }
      return null;
    },
  };
  const odds: OddsHooks = {
    defender: (state, stack, knownTo) => firstDefined(defenders, (h) => h.defender(state, stack, knownTo)),
    targetClass: (state, unit, knownTo) => {
      for (const h of targetClasses) {
        const c = h.targetClass(state, unit, knownTo);
        if (c !== undefined) return c;
      }
      return undefined;
    },
    strength: (state, unit, cls) => {
      for (const h of strengths) {
        const v = h.strength(state, unit, cls);
        if (v !== undefined) return v;
      }
      return state.scenario.units.types[unit.type]?.strength[cls] ?? 0;
    },
    firesAboard: (state, unit, i) => firstDefined(od, (h) => h.firesAboard?.(state, unit, i)),
    // A retreat enters hexes as a move does: Debris closed to a vehicle (GT-6Q.3), a bridge it destroyed (GT-6Q.8), an occupied bridge (Q-GT-10);
    // and it ends only where a move may: the HERS stays on its hex (GT-6N.1), aircraft stack on usable airfields only (Q-GT-31).
    retreatBlocked: { blocked: move.blocked, endProblem: move.endProblem },
    attackerProblem: (state, unit, i) => firstOf(attackerProblems, (h) => h.attackerProblem(state, unit, i) ?? null),
    modifiers: (state, attack, knownTo) => {
      const out: Modifiers = { shifts: [], dieModifiers: [] };
      for (const h of modifiers) {
        const p = h.modifiers(state, attack, knownTo);
        if (p === undefined || p === null) continue;
        for (const x of p.shifts) out.shifts.push(x);
        for (const x of p.dieModifiers) out.dieModifiers.push(x);
      }
      return out;
    },
    adjustResult: (state, attack, result) => resultAdjusters.reduce((r, h) => h.adjustResult(state, attack, r) ?? r, result),
    adjustEffects: (state, attack, effects) => effectAdjusters.reduce((e, h) => h.adjustEffects(state, attack, e) ?? e, effects),
    attackerResult: (state, attack, attacker, result) => attackerResults.reduce((r, h) => h.attackerResult(state, attack, attacker, r) ?? r, result),
    attackerExempt: (state, attack, a) => od.some((h) => h.attackerExempt?.(state, attack, a) === true),
    // Every hook sees the result (some only note it, answering false) until one applies it.
    applyResult: (ctx, attack, result, opts) => {
      for (const h of od) {
        const applied = h.applyResult?.(ctx, attack, result, opts) ?? false;
        if (applied !== false) return applied;
      }
      return false;
    },
    resumeResult: (ctx, then, blocked) => firstDefined(od, (h) => h.resumeResult?.(ctx, then, blocked)),
  };
  const moveProblem = (state: GameState, unit: UnitState, index: number): Violation | null => {
    for (const h of moveProblems) {
      const p = h.moveProblem(state, unit, index) ?? null;
      if (p !== null) return p;
    }
    return null;
  };
  const core: CoreHooks = { move, moveProblem, odds };
  const afters = features.flatMap((f) => (f.afterMove ? [f.afterMove(core)] : []));
  const unloads = features.flatMap((f) => (f.afterUnload ? [f.afterUnload(core)] : []));
  const projections = features.flatMap((f) => (f.projectMove ? [f.projectMove] : []));
  return {
    ...core,
    afterMove: (ctx, moved, resume) =>
      chain(ctx, afters, moved, resume, (s) => ({ unit: moved.unit, with: [...moved.with], path: [...moved.path], ...s })),
    // Loops, not flatMap (slow in V8): every move of a submission is projected.
    projectMove: (state, moved) => {
      const out: EventBody[] = [];
      for (const p of projections) for (const e of p(state, moved)) out.push(e);
      return out;
    },
    afterUnload: (ctx, info, resume) => chain(ctx, unloads, info, resume, (s) => ({ unit: info.unit, carrier: info.carrier, hex: info.hex, ...s })),
    stepReaction: combineStepReactions(features.flatMap((f) => (f.stepReaction ? [f.stepReaction(core)] : []))),
    attackReaction: combineAttackReactions(features.flatMap((f) => (f.attackReaction ? [f.attackReaction(core)] : []))),
  };
}

function firstDefined<H, R>(list: readonly H[], f: (h: H) => R | undefined): R | undefined {
  for (const h of list) {
    const r = f(h);
    if (r !== undefined) return r;
  }
  return undefined;
}

function firstOf<H, R>(list: readonly H[], f: (h: H) => R | null): R | null {
  for (const h of list) {
    const r = f(h);
    if (r !== null) return r;
  }
  return null;
}

type After<I> = (ctx: ResolveContext<GatorsExt>, info: I, resume?: Resume) => void;

/**
 * Runs the hooks in order. A hook that asks gets its stage wrapped with its
 * index (`f`) and the fields the kernel reads back on resume (`frame`); when
 * the answer comes, that hook resumes and the ones after it run.
 */
function chain<I extends MovedInfo | UnloadInfo>(
  ctx: ResolveContext<GatorsExt>,
  hooks: readonly After<I>[],
  info: I,
  resume: Resume | undefined,
  frame: (s: { f: number; s: Json }) => Json,
): void {
  let from = 0;
  if (resume !== undefined) {
    const st = resume.stage as { f: number; s: Json };
    const waiting = proxy(ctx, (s) => frame({ f: st.f, s }));
    hooks[st.f]?.(waiting, info, { stage: st.s, answer: resume.answer });
    if (waiting.suspended) return;
    from = st.f + 1;
  }
  for (let k = from; k < hooks.length; k++) {
    const p = proxy(ctx, (s) => frame({ f: k, s }));
    hooks[k]!(p, info);
    if (p.suspended) return;
  }
}

/**
 * One step reaction from several: the first feature with a question asks.
 * The kernel hands the answer back without saying who asked, so apply finds
 * the feature again by asking the (pure) questions on the same position: the
 * units have not changed since the question (only the answer events came).
 */
function combineStepReactions(list: readonly StepReaction<GatorsExt>[]): StepReaction<GatorsExt> | undefined {
  if (list.length === 0) return undefined;
  return {
    question: (state, step) => firstOf(list, (r) => r.question(state, step)),
    apply: (ctx, step, answer) => {
      const r = list.find((x) => x.question(ctx.state, step) !== null);
      return r === undefined ? true : r.apply(ctx, step, answer);
    },
    stopsLikeZoc: (state, step) => list.find((x) => x.question(state, step) !== null)?.stopsLikeZoc?.(state, step) === true,
  };
}

/** One attack reaction from several: the first feature with a question asks; apply finds it again the same way (see above). */
function combineAttackReactions(list: readonly AttackReaction[]): AttackReaction | undefined {
  if (list.length === 0) return undefined;
  return {
    question: (state, attack, side) => firstOf(list, (r) => r.question(state, attack, side)),
    apply: (ctx, attack, answer) => list.find((r) => r.question(ctx.state, attack, ctx.side) !== null)?.apply(ctx, attack, answer),
  };
}

/** The features' own events, dispatched by type. */
export function combineEvolve(features: readonly GatorsFeature[]): SystemEvolve<GatorsExt> {
  const byType = new Map<string, (state: GState, e: { type: string; data: unknown }) => GState>();
  for (const f of features)
    for (const [type, fn] of Object.entries(f.events ?? {})) {
      if (byType.has(type)) throw new Error(`event type ${type} is defined by two features`);
      byType.set(type, fn);
    }
  return (state, event) => {
    const fn = byType.get(event.type);
    if (fn === undefined) throw new Error(`no Gators! feature handles event type ${event.type}`);
    return fn(state, event);
  };
}
