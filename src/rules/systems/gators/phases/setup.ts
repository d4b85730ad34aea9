import { JsonObject } from '../../../model/json';
import { OrderHandler, ResolveContext } from '../../../engine/kit/types';
import { currentPhase } from '../../../engine/phase-machine';
import { SideId } from '../../../engine/types';
import { GatorsExt } from '../ext';

/**
 * Applies a simultaneous phase's sealed orders once every side is in: each
 * side's orders in the order of turns.json `sides` (not the order in which
 * they were sealed, so the log does not depend on who was quicker). The
 * features' afterSealed steps (the secret breakdown roll, GT-4.8) come after,
 * run by the kernel once these orders' events are logged.
 */
export function resolveSealedInOrder(handlers: readonly OrderHandler<GatorsExt, unknown>[]) {
  return (ctx: ResolveContext<GatorsExt>, sealed: Readonly<Record<SideId, readonly JsonObject[]>>): void => {
    const sides = currentPhase(ctx.state)?.sides ?? [];
    const order = [...sides.filter((s) => s in sealed), ...Object.keys(sealed).filter((s) => !sides.includes(s))];
    for (const side of order) {
      const as = asSide(ctx, side);
      (sealed[side] ?? []).forEach((o, i) => {
        const h = handlers.find((x) => x.kind === o['kind']);
        if (h === undefined) throw new Error(`no handler for sealed order kind ${String(o['kind'])}`);
        h.resolve(as, h.schema.parse(o), i);
      });
    }
  };
}

/** The same resolution, acting for another side (sealed orders are resolved for each side in turn). */
function asSide(ctx: ResolveContext<GatorsExt>, side: SideId): ResolveContext<GatorsExt> {
  return {
    get state() {
      return ctx.state;
    },
    get dice() {
      return ctx.dice;
    },
    side,
    emit: (e) => ctx.emit(e),
    ask: () => {
      throw new Error('sealed setup orders may not stop for a reaction');
    },
  };
}
