import request from 'supertest';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { FakeClock } from '../support/games-harness';
import { setupA, setupB } from '../support/kernel-game';
import { collect, waitFor, wsClient } from './support/subscriptions';

const GAME = 'id title version status turn phase mode acting mySide awaitingMe deadlineAt seedCommitment seed seats { side sideName playerId playerName } settings { deadlineHours spectators } pendingUndo { proposedBy } reaction { side kind prompt } result { winner reason }';
const LOOK = `query($g: ID!) { game(id: $g) { ${GAME} view { map { columns } units { id type side at hex heldBy box flags values concealedAs } stacks { hex unitIds markers { hex marker side } } markers { hex marker side } timeOfDay own raw } history(first: 100) { nodes { version type data time } phases { turn phase mode acting fromVersion } pageInfo { hasNextPage endCursor } } opts: options(unitId: "a-apc-1") { unitId moves { hex cost path } attacks { targetHex targetIds preview } other violations { ruleId code message orderIndex } } } }`;
const SUBMIT = `mutation($input: SubmitPhaseInput!) { submitPhase(input: $input) { gameId fromVersion version events { version type data time } phase { status turn phase mode acting deadlineAt reaction { side kind prompt } result { winner } } game { ${GAME} } } }`;
const CHECK = 'query($input: CheckPhaseInput!) { checkPhase(input: $input) { valid version violations { ruleId code message orderIndex } } }';
const UPDATES = 'subscription($id: ID!) { gameUpdated(gameId: $id) { events { version type data time } game { version turn phase mode acting view { units { id hex } markers { hex marker } own } } } }';

describe('the opponent learns nothing hidden through the API', () => {
  let app: ApiApp;
  let url: string;
  let alice: TestPlayer;
  let bob: TestPlayer;
  beforeAll(async () => {
    // A stopped clock, so that two games differ in nothing but what B hid.
    app = await apiApp({ SUBSCRIPTION_POLL_MS: '50' }, { clock: new FakeClock() });
    url = await app.listen();
    alice = await app.player('Alice');
    bob = await app.player('Bob');
  });
  afterAll(async () => {
    await app.close();
  });

  /** Plays one game; returns every response side A got (GraphQL, REST and its subscription), ids normalised. */
  async function responsesOfA(variant: 0 | 1): Promise<string[]> {
    const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", title: "Leak test", side: "A" }) { id seedCommitment } }'))['createGame'];
    const g = game.id as string;
    const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g }))['invite'].token;
    data(await app.gql(bob.token, 'mutation($t: String) { joinGame(token: $t) { gameId } }', { t: token }));
    const ws = wsClient(url, alice.token);
    const sub = collect(ws, UPDATES, { id: g });
    const out: unknown[] = [];
    const version = async () => data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g }))['game'].version as number;
    const look = async () => {
      const body = (await app.gql(alice.token, LOOK, { g })).body;
      // Only the options of a unit may fail (before the game starts, or while it is carried).
      expect(body.data?.['game']?.view?.raw).toBeTruthy();
      expect((body.errors ?? []).every((e) => JSON.stringify(e.path) === '["game","opts"]')).toBe(true);
      out.push(body);
      out.push((await request(app.http).get(`/api/v1/games/${g}/view`).set('Authorization', `Bearer ${alice.token}`)).body);
      out.push((await request(app.http).get(`/api/v1/games/${g}/history`).set('Authorization', `Bearer ${alice.token}`)).body);
    };
    const asA = async (orders: unknown, n: number) => {
      out.push(data(await app.gql(alice.token, SUBMIT, { input: { gameId: g, expectedVersion: await version(), orders, idempotencyKey: `leak-${n}-${g}` } })));
      await look();
    };
    const asB = async (orders: unknown, n: number) => {
      data(await app.gql(bob.token, SUBMIT, { input: { gameId: g, expectedVersion: await version(), orders, idempotencyKey: `leak-b${n}-${g}` } }));
    };
    try {
      await look();
      await asA(setupA, 1);
      await asB(setupB(variant), 1);
      await look();
      // Refused orders that touch B's hidden units, over GraphQL and REST: the errors must not tell where they are.
      let n = 0;
      const refusedDrafts = [
        [{ kind: 'move', unit: 'b-inf-1', path: ['0707'] }],
        [{ kind: 'move', unit: 'b-inf-2', path: ['0707'] }],
        [{ kind: 'unload', unit: 'a-apc-1', hex: '0706' }],
        [{ kind: 'attack', attackers: [{ unit: 'a-ship' }], target: '0706' }],
      ];
      for (const orders of refusedDrafts) {
        const gql = (await app.gql(alice.token, SUBMIT, { input: { gameId: g, expectedVersion: await version(), orders, idempotencyKey: `refused-${n++}-${g}` } })).body;
        expect(gql.errors?.length).toBeGreaterThan(0);
        out.push(gql);
        const rest = await request(app.http).post(`/api/v1/games/${g}/phases`).set('Authorization', `Bearer ${alice.token}`).send({ expectedVersion: await version(), orders, idempotencyKey: `refused-${n++}-${g}` });
        expect(rest.status).toBe(400);
        out.push(rest.body);
      }
      // Checked drafts, legal and not, over both transports: the verdict is the same in both games.
      const legalDraft = [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }];
      for (const orders of [legalDraft, ...refusedDrafts]) {
        const input = { gameId: g, expectedVersion: await version(), orders };
        const gql = data(await app.gql(alice.token, CHECK, { input }));
        expect(gql['checkPhase'].valid).toBe(orders === legalDraft);
        out.push(gql);
        const rest = await request(app.http).post(`/api/v1/games/${g}/phases/check`).set('Authorization', `Bearer ${alice.token}`).send({ expectedVersion: input.expectedVersion, orders });
        expect(rest.status).toBe(200);
        out.push(rest.body);
      }
      for (const unit of ['b-inf-1', 'b-inf-2']) out.push((await app.gql(alice.token, `query($g: ID!) { game(id: $g) { options(unitId: "${unit}") { unitId moves { hex } attacks { targetHex } } } }`, { g })).body);
      await asA([{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }], 2);
      await asA([], 3);
      await asB([], 2);
      await asB([], 3);
      await look();
      await asA([{ kind: 'move', unit: 'a-apc-1', path: ['0303'] }], 4);
      await asA([], 5);
      const last = await version();
      await waitFor(() => sub.results.some((r) => r.data?.gameUpdated.game.version === last), 'the last update');
      // Updates may be grouped differently by timing; their contents may not differ.
      out.push(sub.results.flatMap((r) => r.data!.gameUpdated.events));
      out.push(sub.results.at(-1)!.data!.gameUpdated.game);
    } finally {
      sub.dispose();
      await ws.dispose();
    }
    // A cursor names its game too, in base64: read it out so that the game's id is masked there as well.
    const cursorsRead = (text: string) => text.replace(/"((?:end|next)?[cC]ursor)":"([A-Za-z0-9_-]+)"/g, (_, k: string, c: string) => `"${k}":${JSON.stringify(Buffer.from(c, 'base64url').toString('utf8'))}`);
    return out.map((r) => cursorsRead(JSON.stringify(r)).split(g).join('<game>').split(game.seedCommitment).join('<commitment>'));
  }

  it("gives side A identical responses when only B's hidden units differ", async () => {
    const one = await responsesOfA(0);
    const two = await responsesOfA(1);
    expect(one.length).toBeGreaterThan(15);
    const differing = one.findIndex((r, i) => r !== two[i]);
    expect(differing === -1 ? 'identical' : `response ${differing} differs:\n${one[differing]}\n${two[differing]}`).toBe('identical');
  });

  /** A kernel-test game past both setups, B's variant hiding its infantry. */
  async function pastSetup(variant: 0 | 1): Promise<string> {
    const g = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g }))['invite'].token;
    data(await app.gql(bob.token, 'mutation($t: String) { joinGame(token: $t) { gameId } }', { t: token }));
    for (const [who, orders] of [[alice, setupA], [bob, setupB(variant)]] as const) {
      const v = data(await app.gql(who.token, 'query($g: ID!) { game(id: $g) { version } }', { g }))['game'].version;
      data(await app.gql(who.token, SUBMIT, { input: { gameId: g, expectedVersion: v, orders, idempotencyKey: `real-${variant}-${who.name}-${g}` } }));
    }
    return g;
  }

  it("is a real check: B's own view of two such games differs", async () => {
    const views: string[] = [];
    for (const variant of [0, 1] as const) {
      const g = await pastSetup(variant);
      views.push(JSON.stringify(data(await app.gql(bob.token, 'query($g: ID!) { game(id: $g) { view { units { id hex } } } }', { g }))).split(g).join('<game>'));
    }
    expect(views[0]).not.toBe(views[1]);
  });

  it('shows B, in its own stacks, the markers A sees over its hidden units, and A nothing more', async () => {
    const g = await pastSetup(0);
    type Marker = { hex: string; marker: string; side: string };
    type Board = { stacks: Array<{ hex: string; unitIds: string[]; markers: Marker[] }>; markers: Marker[] };
    const STACKS = 'query($g: ID!) { game(id: $g) { view { stacks { hex unitIds markers { hex marker side } } markers { hex marker side } } } }';
    const board = async (p: TestPlayer): Promise<Board[]> => [
      data(await app.gql(p.token, STACKS, { g }))['game'].view,
      (await request(app.http).get(`/api/v1/games/${g}/view`).set('Authorization', `Bearer ${p.token}`)).body,
    ];
    const marked = (b: Board) => b.stacks.filter((s) => s.markers.length > 0).map((s) => ({ hex: s.hex, markers: s.markers }));
    const hidden: Marker[] = [{ hex: '0706', marker: '?', side: 'B' }, { hex: '1007', marker: '?', side: 'B' }];
    const [a, b] = [await board(alice), await board(bob)];
    // GraphQL, then REST.
    for (const [asA, asB] of [[a[0]!, b[0]!], [a[1]!, b[1]!]]) {
      expect(asA.markers).toEqual(hidden);
      expect(asB.markers).toEqual(hidden);
      expect(marked(asB)).toEqual(marked(asA));
      expect(asB.stacks.find((s) => s.hex === '0706')).toEqual({ hex: '0706', unitIds: ['b-inf-1'], markers: [hidden[0]] });
      expect(asA.stacks.find((s) => s.hex === '0706')).toEqual({ hex: '0706', unitIds: [], markers: [hidden[0]] });
    }
  });
});
