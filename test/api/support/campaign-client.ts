import request from 'supertest';
import type { DiceSourceFactory } from '../../../src/games/dice/dice-source';
import { seededSource } from '../../../src/games/dice/server-dice';
import type { ApiApp, TestPlayer } from './api-app';

/**
 * The app's dice for a scripted game: each step's forced rolls are loaded before it is
 * submitted and handed out in the order the engine asks for them; a roll beyond them comes
 * from the game's seed (and is counted, so a test can tell).
 */
export class ScriptedDice {
  private queue: number[] = [];
  fromSeed = 0;

  readonly factory: DiceSourceFactory = (seed) => {
    const seeded = seededSource(seed);
    return (n, sides, purpose) => {
      const next = this.queue.shift();
      if (next !== undefined) return next;
      this.fromSeed += 1;
      return seeded(n, sides, purpose);
    };
  };

  load(rolls: readonly number[]): void {
    this.queue = [...rolls];
  }

  get remaining(): number {
    return this.queue.length;
  }
}

export interface ApiEvent {
  version: number;
  type: string;
  data: unknown;
}

export interface StepOutcome {
  version: number;
  events: ApiEvent[];
  phase: { turn: number; phase: string; mode: string; acting: string[]; reaction: { side: string; kind: string; prompt: unknown } | null; result: { winner: string | null } | null };
  /** The response body as the client received it, for the hidden-information checks. */
  raw: string;
}

export type CampaignSubmission = { kind: 'orders' | 'reaction' | 'standing-orders'; orders: unknown };

/** Submits one campaign step through the operation a client would use for its kind. */
export interface CampaignTransport {
  submit(app: ApiApp, player: TestPlayer, gameId: string, expectedVersion: number, submission: CampaignSubmission, idempotencyKey: string): Promise<StepOutcome>;
  /** The events from `fromVersion` on, as the player's side may see them. */
  eventsSince(app: ApiApp, player: TestPlayer, gameId: string, fromVersion: number): Promise<{ events: ApiEvent[]; raw: string }>;
}

const lower = (s: string) => s.toLowerCase();
const PHASE = 'turn phase mode acting reaction { side kind prompt } result { winner reason }';
const OUTCOME = `version events { version type data } phase { ${PHASE} }`;

export const graphqlTransport: CampaignTransport = {
  async submit(app, player, gameId, expectedVersion, submission, idempotencyKey) {
    const [field, query, input] =
      submission.kind === 'orders'
        ? ['submitPhase', `mutation($input: SubmitPhaseInput!) { submitPhase(input: $input) { ${OUTCOME} } }`, { gameId, expectedVersion, orders: submission.orders, idempotencyKey }]
        : submission.kind === 'reaction'
          ? ['submitReaction', `mutation($input: SubmitReactionInput!) { submitReaction(input: $input) { ${OUTCOME} } }`, { gameId, expectedVersion, answer: submission.orders, idempotencyKey }]
          : ['setStandingOrders', `mutation($input: SetStandingOrdersInput!) { setStandingOrders(input: $input) { ${OUTCOME} } }`, { gameId, expectedVersion, orders: submission.orders, idempotencyKey }];
    const r = await app.gql(player.token, query, { input });
    if (r.body.errors?.length) throw new Error(`${field} refused: ${JSON.stringify(r.body.errors)}`);
    const o = r.body.data![field];
    return { version: o.version, events: o.events, phase: { ...o.phase, mode: lower(o.phase.mode) }, raw: JSON.stringify(r.body) };
  },

  async eventsSince(app, player, gameId, fromVersion) {
    const r = await app.gql(player.token, 'query($id: ID!, $from: Int) { game(id: $id) { history(fromVersion: $from, first: 100) { nodes { version type data } pageInfo { hasNextPage } } } }', { id: gameId, from: fromVersion });
    if (r.body.errors?.length) throw new Error(`history refused: ${JSON.stringify(r.body.errors)}`);
    const h = r.body.data!['game'].history;
    if (h.pageInfo.hasNextPage) throw new Error('more than one page of events in one step');
    return { events: h.nodes, raw: JSON.stringify(r.body) };
  },
};

export const restTransport: CampaignTransport = {
  async submit(app, player, gameId, expectedVersion, submission, idempotencyKey) {
    const auth = { Authorization: `Bearer ${player.token}`, 'Idempotency-Key': idempotencyKey };
    const res =
      submission.kind === 'orders'
        ? await request(app.http).post(`/api/v1/games/${gameId}/phases`).set(auth).send({ expectedVersion, orders: submission.orders })
        : submission.kind === 'reaction'
          ? await request(app.http).post(`/api/v1/games/${gameId}/reactions`).set(auth).send({ expectedVersion, answer: submission.orders })
          : await request(app.http).put(`/api/v1/games/${gameId}/standing-orders`).set(auth).send({ expectedVersion, orders: submission.orders });
    if (res.status !== 200) throw new Error(`${submission.kind} refused: ${res.status} ${JSON.stringify(res.body)}`);
    return { version: res.body.version, events: res.body.events, phase: res.body.phase, raw: res.text };
  },

  async eventsSince(app, player, gameId, fromVersion) {
    const res = await request(app.http).get(`/api/v1/games/${gameId}/history?fromVersion=${fromVersion}&limit=100`).set('Authorization', `Bearer ${player.token}`);
    if (res.status !== 200) throw new Error(`history refused: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.nextCursor) throw new Error('more than one page of events in one step');
    return { events: res.body.events, raw: res.text };
  },
};
