import { gatorsEntry } from '../../support/gators-game';
import { apiApp, ApiApp, TestPlayer } from './api-app';
import { GraphqlClient } from './game-client';

/** The whole app offering Gators!, and a new game of Unnarstan at setup with both seats taken (Uma P1, Ivo P2), made over GraphQL. */
export async function gatorsApiGame(): Promise<{ app: ApiApp; p1: TestPlayer; p2: TestPlayer; gameId: string }> {
  const app = await apiApp({}, { entries: [gatorsEntry()] });
  const p1 = await app.player('Uma');
  const p2 = await app.player('Ivo');
  const c1 = new GraphqlClient(app, p1);
  const gameId = (await c1.createGame('gators-unnarstan', 'P1')).id;
  await new GraphqlClient(app, p2).join(await c1.invite(gameId, 'P2'));
  return { app, p1, p2, gameId };
}
