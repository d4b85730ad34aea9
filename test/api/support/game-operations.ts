/** Every GraphQL operation that names a game, with the variables it needs besides the game id. */
export const GAME_OPERATIONS: Array<{ name: string; query: string; vars?: Record<string, unknown>; read: boolean }> = [
  { name: 'game', read: true, query: 'query($g: ID!) { game(id: $g) { id version mySide } }' },
  { name: 'game.view', read: true, query: 'query($g: ID!) { game(id: $g) { view { units { id } own } } }' },
  { name: 'game.options', read: true, query: 'query($g: ID!) { game(id: $g) { options(unitId: "a-ship") { moves { hex } } } }' },
  { name: 'game.sideOptions', read: true, query: 'query($g: ID!) { game(id: $g) { sideOptions { other } } }' },
  { name: 'game.options(after)', read: true, query: 'query($g: ID!) { game(id: $g) { options(unitId: "a-ship", after: [{ kind: "move", unit: "a-ship", path: [] }]) { moves { hex } } } }' },
  { name: 'game.history', read: true, query: 'query($g: ID!) { game(id: $g) { history { nodes { type data } } } }' },
  { name: 'gameExport', read: true, query: 'query($g: ID!) { gameExport(gameId: $g) }' },
  { name: 'me.notificationSettings(gameId)', read: true, query: 'query($g: ID!) { me { notificationSettings(gameId: $g) { digest } } }' },
  { name: 'me.notificationDeliveries(gameId)', read: true, query: 'query($g: ID!) { me { notificationDeliveries(gameId: $g) { nodes { id } } } }' },
  { name: 'invite', read: false, query: 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }' },
  // Invitations are the inviters' business: a spectator holds no seat to invite to.
  { name: 'gameInvitations', read: false, query: 'query($g: ID!) { gameInvitations(gameId: $g) { nodes { id status } } }' },
  { name: 'withdrawInvitation', read: false, query: 'mutation($g: ID!) { withdrawInvitation(gameId: $g, invitationId: "inv_x") { id } }' },
  { name: 'submitPhase', read: false, query: 'mutation($g: ID!, $v: Int!) { submitPhase(input: { gameId: $g, expectedVersion: $v, orders: [], idempotencyKey: "authz-1" }) { version } }' },
  { name: 'checkPhase', read: false, query: 'query($g: ID!, $v: Int!) { checkPhase(input: { gameId: $g, expectedVersion: $v, orders: [] }) { valid version violations { ruleId } } }' },
  { name: 'submitReaction', read: false, query: 'mutation($g: ID!, $v: Int!) { submitReaction(input: { gameId: $g, expectedVersion: $v, answer: { attackers: [] }, idempotencyKey: "authz-2" }) { version } }' },
  { name: 'setStandingOrders', read: false, query: 'mutation($g: ID!, $v: Int!) { setStandingOrders(input: { gameId: $g, expectedVersion: $v, orders: { landing_fire: "all" }, idempotencyKey: "authz-3" }) { version } }' },
  ...['resign', 'proposeUndo', 'acceptUndo', 'declineUndo', 'startVacation', 'endVacation'].map((m) => ({
    name: m,
    read: false,
    query: `mutation($g: ID!, $v: Int!) { ${m}(gameId: $g, expectedVersion: $v) { version } }`,
  })),
  { name: 'updateNotificationSettings(gameId)', read: false, query: 'mutation($g: ID!) { updateNotificationSettings(gameId: $g, input: { digest: true }) { digest } }' },
  { name: 'clearGameNotificationSettings', read: false, query: 'mutation($g: ID!) { clearGameNotificationSettings(gameId: $g) { digest } }' },
];
