import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { GameClient, GraphqlClient, RestClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';

const REACTION = 'query($g: ID!) { game(id: $g) { mode acting reaction { side kind prompt } } }';

/**
 * Everyone who may see a game reads a ReactionRequested in its history: the side asked, the kind
 * and the public prompt. The game's `reaction` tells each of them that same public part, and
 * nothing the history does not (the asked side's choices are in its own board only).
 */
describe('a reaction window, as each reader of the game sees it', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let carol: TestPlayer;
  let gameId: string;

  beforeAll(async () => {
    app = await apiApp();
    [alice, bob, carol] = [await app.player('Alice'), await app.player('Bob'), await app.player('Carol')];
    const window = script.steps.findIndex((s) => s.kind === 'reaction');
    gameId = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, window, { spectators: true })).gameId;
  }, 120_000);
  afterAll(async () => {
    await app.close();
  });

  /** The public part of the last ReactionRequested the reader's history shows (the asked side reads the whole request). */
  const asked = async (c: GameClient) => {
    const events = (await c.history(gameId)).events.filter((e) => e.type === 'ReactionRequested');
    const seen = events.at(-1)!.data as { side: string; kind: string; prompt: unknown; request?: { side: string; kind: string; prompt: unknown } };
    const { side, kind, prompt } = seen.request ?? seen;
    return { side, kind, prompt };
  };

  it.each([
    ['the other side', () => alice],
    ['a spectator', () => carol],
    ['the asked side', () => bob],
  ])('tells %s who is asked, the kind and the public prompt, as its history does', async (_who, player) => {
    const gql = new GraphqlClient(app, player());
    const rest = new RestClient(app, player());
    const told = await asked(gql);
    expect(told).toMatchObject({ side: 'B', kind: 'landing-fire' });
    expect(await asked(rest)).toEqual(told);
    const game = data(await app.gql(player().token, REACTION, { g: gameId }))['game'];
    expect(game).toEqual({ mode: 'REACTION', acting: ['B'], reaction: { side: told.side, kind: told.kind, prompt: told.prompt } });
    expect((await rest.game(gameId)).reaction).toEqual({ side: told.side, kind: told.kind, prompt: told.prompt });
  });
});
