import { ApiApp, data } from './api-app';

/**
 * The open challenges of one game, as `token`'s holder reads them over GraphQL (`fields`: what to
 * ask of each). The list is shared by every suite writing to the test database, newest first by
 * each app's own clock (some tests run theirs days ahead), so the game's may be on any page: read
 * them all.
 */
export async function openChallengesOf(app: ApiApp, token: string, gameId: string, fields = 'id gameId'): Promise<Array<Record<string, unknown>>> {
  const found: Array<Record<string, unknown>> = [];
  let after: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const r: { nodes: Array<Record<string, unknown>>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = data(
      await app.gql(token, `query($a: String) { openChallenges(first: 100, after: $a) { nodes { gameId ${fields} } pageInfo { hasNextPage endCursor } } }`, { a: after }),
    )['openChallenges'];
    found.push(...r.nodes.filter((n) => n['gameId'] === gameId));
    if (!r.pageInfo.hasNextPage) break;
    after = r.pageInfo.endCursor;
  }
  return found;
}
