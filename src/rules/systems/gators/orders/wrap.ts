import { GameState } from '../../../model/state';
import { EventBody, orderCancelled } from '../../../engine/events';
import { OrderHandler, ResolveContext } from '../../../engine/kit/types';
import { SideId, Violation } from '../../../engine/types';
import { INPUT_RULE } from '../../../engine/violation';
import { rememberedCheck } from '../../../engine/kit/remembered-check';
import { GatorsExt } from '../ext';

export type Check<O> = (state: GameState<GatorsExt>, side: SideId, order: O, index: number) => Violation[];

/**
 * A kernel order handler with Gators! checks in front of it: the checks run
 * first in validate and again at resolution (an order made impossible by
 * earlier results is cancelled, as the kernel does), and hide the unit's
 * options while they fail. `project` may add events the kernel does not know.
 */
export function withChecks<O>(
  base: OrderHandler<GatorsExt, O>,
  check: Check<O>,
  opts: { project?: (state: GameState<GatorsExt>, side: SideId, order: O) => EventBody[]; optionsCheck?: (state: GameState<GatorsExt>, side: SideId, unitId: string) => boolean } = {},
): OrderHandler<GatorsExt, O> {
  // Resolution checks again on the state validation checked (remembered-check.ts).
  const checked = rememberedCheck(check);
  return {
    kind: base.kind,
    schema: base.schema,
    validate: (state, side, o, i) => {
      const v = checked(state, side, o, i);
      if (v.length === 0) return base.validate(state, side, o, i);
      // Whether the units are the side's own comes first: what a check says of another side's
      // unit (that it broke down, GT-4.9) would tell what that side hides.
      const input = base.validate(state, side, o, i).filter((x) => x.ruleId === INPUT_RULE);
      return input.length > 0 ? input : v;
    },
    project: (state, side, o) => [...base.project(state, side, o), ...(opts.project?.(state, side, o) ?? [])],
    resolve: (ctx, o, i, resume) => {
      if (resume === undefined) {
        const v = checked(ctx.state, ctx.side, o, i);
        if (v.length > 0) return cancel(ctx, i, base.kind, v[0]!);
      }
      base.resolve(ctx, o, i, resume);
    },
    ...(base.optionOrder === undefined ? {} : { optionOrder: base.optionOrder }),
    // Kept whole: sideOptions() puts each through validate, which runs the checks.
    ...(base.sideOptions === undefined ? {} : { sideOptions: base.sideOptions }),
    ...(base.options === undefined
      ? {}
      : {
          options: (state: GameState<GatorsExt>, side: SideId, unitId: string) =>
            opts.optionsCheck !== undefined && !opts.optionsCheck(state, side, unitId) ? {} : base.options!(state, side, unitId),
        }),
  };
}

export function cancel(ctx: ResolveContext<GatorsExt>, index: number, kind: string, v: Violation): void {
  ctx.emit(orderCancelled(ctx.side, index, kind, v));
}
