import { Json } from '../../model/json';
import { AskRequest, AskResult, ResolveContext } from '../../engine/kit/types';
import { RulesEvent } from '../../engine/types';
import { GatorsExt } from './ext';

/**
 * The same context, with the stage of its asks wrapped, and whether an ask left the resolution suspended.
 * A class, not an object literal with getters: one is made per hook per move, and a literal
 * with accessors is slow to create.
 */
export class StageProxy implements ResolveContext<GatorsExt> {
  /** Whether an ask left the resolution suspended. */
  suspended = false;

  constructor(
    private readonly ctx: ResolveContext<GatorsExt>,
    private readonly wrap: (stage: Json) => Json,
  ) {}

  get state() {
    return this.ctx.state;
  }

  get dice() {
    return this.ctx.dice;
  }

  get side() {
    return this.ctx.side;
  }

  // Fields, not methods, so that they work detached (`const { emit } = ctx`) as before.
  readonly emit = (e: RulesEvent): void => this.ctx.emit(e);

  readonly ask = (req: AskRequest): AskResult => {
    const r = this.ctx.ask({ ...req, stage: this.wrap(req.stage) });
    if (!r.answered) this.suspended = true;
    return r;
  };
}

export function stageProxy(ctx: ResolveContext<GatorsExt>, wrap: (stage: Json) => Json): StageProxy {
  return new StageProxy(ctx, wrap);
}
