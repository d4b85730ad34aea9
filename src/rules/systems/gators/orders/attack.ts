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
 * Only an order that would be carried out asks; on resume the answer is
 * applied and the order resolves as it would have.
 */
export function withAttackReaction<O extends AttackAt>(base: OrderHandler<GatorsExt, O>, reaction: AttackReaction | undefined): OrderHandler<GatorsExt, O> {
  if (reaction === undefined) return base;
  return {
    ...base,
    resolve: (ctx, o, i, resume) => {
      // A later question of the same attack (the defender's owner choosing, Q-GT-35/44) is the base order's to resume.
      if (resume !== undefined && !ownStage(resume.stage)) return base.resolve(ctx, o, i, resume);
      if (askFirst(ctx, reaction, o, resume, () => base.validate(ctx.state, ctx.side, o, i).length === 0)) base.resolve(ctx, o, i);
    },
  };
}

function ownStage(stage: Json): boolean {
  return typeof stage === 'object' && stage !== null && (stage as { kind?: unknown }).kind === STAGE;
}

/**
 * The reaction step of any order that makes one attack: returns whether the
 * attack may go on now (false: the resolution is suspended until the answer).
 */
export function askFirst(ctx: ResolveContext<GatorsExt>, reaction: AttackReaction | undefined, attack: AttackAt, resume: Resume | undefined, valid: () => boolean): boolean {
  if (reaction === undefined) return true;
  if (resume !== undefined) {
    reaction.apply(ctx, attack, resume.answer);
    return true;
  }
  if (!valid()) return true;
  const q = reaction.question(ctx.state, attack, ctx.side);
  if (q === null) return true;
  const r = ctx.ask({ ...q, stage: { kind: STAGE, target: attack.target } as Json });
  if (!r.answered) return false;
  reaction.apply(ctx, attack, r.answer);
  return true;
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
