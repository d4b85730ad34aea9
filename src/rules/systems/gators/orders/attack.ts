import { Json } from '../../../model/json';
import { firingStand } from '../../../engine/combat/attack-checks';
import { OddsHooks } from '../../../engine/combat/odds-step';
import { OrderHandler, ResolveContext, Resume } from '../../../engine/kit/types';
import { visibilityFor } from '../../../engine/visibility';
import { AttackAt, AttackReaction } from '../feature';
import { GatorsExt } from '../ext';
import { publicOf } from '../queries';

const STAGE = 'before-attack';

/**
 * Asks the attack reaction before an attack is resolved (GT-7G.2, Q-GT-40:
 * the attacked aircraft may jettison a marker before the die is rolled).
 * Only an order that would be carried out asks; on resume the order resolves
 * as it would have, with the answer carried out once the attack takes place.
 * `make` builds the order with the hooks to resolve it with.
 */
export function withAttackReaction<O extends AttackAt>(make: (odds: OddsHooks) => OrderHandler<GatorsExt, O>, odds: OddsHooks, reaction: AttackReaction | undefined): OrderHandler<GatorsExt, O> {
  const base = make(odds);
  if (reaction === undefined) return base;
  return {
    ...base,
    resolve: (ctx, o, i, resume) => {
      // A later question of the same attack (the defender's owner choosing, Q-GT-35/44) is the base order's to resume.
      if (resume !== undefined && !ownStage(resume.stage)) return base.resolve(ctx, o, i, resume);
      const hooks = askFirst(ctx, reaction, o, resume, () => base.validate(ctx.state, ctx.side, o, i).length === 0, odds);
      if (hooks !== false) (hooks === odds ? base : make(hooks)).resolve(ctx, o, i);
    },
  };
}

function ownStage(stage: Json): boolean {
  return typeof stage === 'object' && stage !== null && (stage as { kind?: unknown }).kind === STAGE;
}

/**
 * The reaction step of any order that makes one attack: false while the
 * resolution waits for the answer, else the hooks to resolve the attack with.
 * An answer is carried out by them (beforeDie) only once the attack takes
 * place, after its pre-rolls: an aircraft that its attacker does not find (a
 * failed pre-roll, GT-7B.1) has escaped without jettisoning anything.
 */
export function askFirst(ctx: ResolveContext<GatorsExt>, reaction: AttackReaction | undefined, attack: AttackAt, resume: Resume | undefined, valid: () => boolean, odds: OddsHooks): OddsHooks | false {
  if (reaction === undefined) return odds;
  let answer: Json;
  if (resume !== undefined) answer = resume.answer;
  else {
    if (!valid()) return odds;
    const q = reaction.question(ctx.state, attack, ctx.side);
    if (q === null) return odds;
    const r = ctx.ask({ ...q, stage: { kind: STAGE, target: attack.target } as Json });
    if (!r.answered) return false;
    answer = r.answer;
  }
  // After what the attack itself does once it takes place (the attacker's markers used, air-strike.ts).
  return {
    ...odds,
    beforeDie: (c, setup) => {
      odds.beforeDie?.(c, setup);
      reaction.apply(ctx, attack, answer);
    },
  };
}

/**
 * GT-6G.5, Q-GT-49: a counter that fires from aboard a landing craft is seen
 * firing: before the attack, all read which counter fires from which craft,
 * and the view shows it aboard for the rest of the turn (landing-craft-fire.ts).
 * Nothing else of the cargo is told.
 */
export function withFireFromAboardShown<O extends AttackAt>(base: OrderHandler<GatorsExt, O>, odds: OddsHooks): OrderHandler<GatorsExt, O> {
  return {
    ...base,
    resolve: (ctx, o, i, resume) => {
      // Most attacks have nobody aboard: they need no second look before the attack.
      const aboard = o.attackers.some((a) => ctx.state.units[a.unit]?.loc.at === 'carried');
      if (aboard && resume === undefined && base.validate(ctx.state, ctx.side, o, i).length === 0)
        for (const a of o.attackers) {
          const u = ctx.state.units[a.unit]!;
          const stand = firingStand(ctx.state, odds, u);
          if (stand === undefined || stand === u || stand.loc.at !== 'hex' || visibilityFor(ctx.state, [u]).to === 'all') continue;
          ctx.emit({ ...publicOf('FiredFromAboard', { unit: u.id, type: u.type, carrier: stand.id, hex: stand.loc.hex, target: o.target }), reveals: true });
        }
      base.resolve(ctx, o, i, resume);
    },
  };
}
