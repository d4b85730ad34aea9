import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { encodeCursor } from '../../src/api/graphql/pagination';
import { testPrisma, uniqueId } from '../support/database';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { GraphqlClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';
import { smtpCapture } from './support/smtp';
import { OpenApiDocument, operations, resolveRef, SchemaObject } from './support/openapi-schema';

const STACK = /\bat \S+ \(|node_modules|\.ts:\d+|stacktrace/i;

interface Ctx {
  /** Alice and Bob's game, A (Alice) to move. */
  active: string;
  /** Alice's own game, still seating. */
  seating: string;
  /** Eve's game: Alice holds no seat in it. */
  foreign: string;
  /** Eve's API token's id. */
  foreignToken: string;
  version: number;
}

/** How one bad request goes out: REST (method, path, raw body, content type) or a GraphQL operation. */
type Send =
  | { rest: [method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: string, contentType?: string] }
  | { gql: string; variables?: Record<string, unknown> };

/** What must come back: the HTTP status, the machine code, the field the message must name, and what it must (not) say. */
interface Expected {
  status: number;
  code: string;
  field?: string;
  says?: RegExp;
  /** A field or a wording the message must not bring up: a problem the request does not have. */
  not?: string;
}

const submit = 'mutation($i: SubmitPhaseInput!) { submitPhase(input: $i) { version } }';
const check = 'query($i: CheckPhaseInput!) { checkPhase(input: $i) { valid } }';
const resign = 'mutation($g: ID!, $v: Int!) { resign(gameId: $g, expectedVersion: $v) { version } }';
const createGame = 'mutation($i: CreateGameInput!) { createGame(input: $i) { id } }';
const invite = 'mutation($i: InviteInput!) { invite(input: $i) { token } }';
const json = (v: unknown) => JSON.stringify(v);
const options = 'query($g: ID!, $u: String!, $t: String) { game(id: $g) { options(unitId: $u, targetHex: $t) { unitId } } }';
const history = 'query($g: ID!, $f: Int) { game(id: $g) { history(fromVersion: $f) { edges { node { version } } } } }';
const historyAfter = 'query($g: ID!, $a: String) { game(id: $g) { history(after: $a) { edges { node { version } } } } }';
/** Longer than any real id: echoed in full, it made a 5,000-character message. */
const huge = 'x'.repeat(5000);
/** No message needs to be longer, whatever the input it names. */
const MAX_MESSAGE = 400;

/**
 * Every way of getting input wrong that a client can, against every mutation and REST endpoint
 * that takes input: each is refused with a 4xx (GraphQL: an error) carrying a machine code and a
 * message naming what is wrong, no stack trace, and nothing written. junk-input.e2e-spec.ts
 * fuzzes for 500s; this pins down what the answer says.
 */
const CASES: Array<[name: string, send: (c: Ctx) => Send, expected: Expected]> = [
  // The body itself.
  ['REST: malformed JSON', () => ({ rest: ['post', '/api/v1/games', '{"scenarioId":'] }), { status: 400, code: 'http/malformed_body' }],
  ['REST: a JSON number as the body', () => ({ rest: ['post', '/api/v1/games', '5'] }), { status: 400, code: 'http/malformed_body' }],
  ['REST: a JSON string as the body', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/resign`, '"x"'] }), { status: 400, code: 'http/malformed_body' }],
  ['REST: a JSON array as the body', () => ({ rest: ['post', '/api/v1/games', '[]'] }), { status: 400, code: 'request/invalid', field: 'scenarioId' }],
  ['REST: an empty body', () => ({ rest: ['post', '/api/v1/games', ''] }), { status: 400, code: 'request/invalid', field: 'scenarioId' }],
  ['REST: a form-encoded body', () => ({ rest: ['post', '/api/v1/games', 'scenarioId=kernel-test', 'application/x-www-form-urlencoded'] }), { status: 415, code: 'http/unsupported_media_type', field: 'Content-Type' }],
  ['REST: a form-encoded resignation', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/resign`, `expectedVersion=${c.version}`, 'application/x-www-form-urlencoded'] }), { status: 415, code: 'http/unsupported_media_type', field: 'Content-Type' }],
  ['REST: JSON sent as text/plain', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test' }), 'text/plain'] }), { status: 415, code: 'http/unsupported_media_type', field: 'Content-Type' }],
  ['REST: JSON in a charset the parser cannot read', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test' }), 'application/json; charset=latin1'] }), { status: 415, code: 'http/unsupported_media_type', field: 'Content-Type' }],
  ['GraphQL: a form-encoded operation', () => ({ rest: ['post', '/graphql', 'query=%7B%20me%20%7B%20id%20%7D%20%7D', 'application/x-www-form-urlencoded'] }), { status: 400, code: 'BAD_REQUEST' }],
  ['GraphQL: malformed JSON', () => ({ rest: ['post', '/graphql', '{"query":'] }), { status: 400, code: 'BAD_USER_INPUT', field: 'JSON' }],
  ['GraphQL: variables that are not an object', () => ({ rest: ['post', '/graphql', json({ query: '{ me { id } }', variables: [] })] }), { status: 400, code: 'BAD_REQUEST' }],
  // Creating a game.
  ['REST: createGame with a null scenarioId', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: null })] }), { status: 400, code: 'request/invalid', field: 'scenarioId' }],
  // REST refused these as request/invalid, GraphQL as scenario/not_found: one code over both.
  ['REST: createGame with a huge scenarioId', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'x'.repeat(100_000) })] }), { status: 404, code: 'scenario/not_found' }],
  ['REST: createGame with an empty scenarioId', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: '' })] }), { status: 404, code: 'scenario/not_found' }],
  ['GraphQL: createGame with an empty scenarioId', () => ({ gql: createGame, variables: { i: { scenarioId: '' } } }), { status: 200, code: 'scenario/not_found' }],
  ['GraphQL: createGame with a huge scenarioId', () => ({ gql: createGame, variables: { i: { scenarioId: huge } } }), { status: 200, code: 'scenario/not_found' }],
  ['GraphQL: createGame with a huge side', () => ({ gql: createGame, variables: { i: { scenarioId: 'kernel-test', side: huge } } }), { status: 200, code: 'game/unknown_side' }],
  ['REST: a scenario with a huge id', () => ({ rest: ['get', `/api/v1/scenarios/${huge}`] }), { status: 404, code: 'scenario/not_found' }],
  // Names every object has ("constructor", "toString", "__proto__") were dropped on the way to the
  // controller, so a field that must be refused was not even seen.
  ['REST: createGame with an unknown field named constructor', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', constructor: 1 })] }), { status: 400, code: 'request/invalid', field: 'constructor' }],
  ['REST: createGame with an unknown field named __proto__', () => ({ rest: ['post', '/api/v1/games', '{"scenarioId":"kernel-test","__proto__":{"side":"A"}}'] }), { status: 400, code: 'request/invalid', field: '__proto__' }],
  ['REST: createGame with a setting named toString', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { toString: 1 } })] }), { status: 400, code: 'request/invalid', field: 'settings.toString' }],
  ['REST: createGame with an unknown scenario', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'nope' })] }), { status: 404, code: 'scenario/not_found' }],
  ['REST: createGame with settings that are a list', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: [] })] }), { status: 400, code: 'request/invalid', field: 'settings' }],
  ['REST: createGame with a negative deadline', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { deadlineHours: -1 } })] }), { status: 400, code: 'game/bad_options', field: 'deadlineHours' }],
  // The reaction window a game gets when none is sent follows the deadline: a bad deadline is the one problem.
  ['REST: createGame with a deadline of 0 and no reaction window', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { deadlineHours: 0 } })] }), { status: 400, code: 'game/bad_options', field: 'deadlineHours', not: 'reactionHours' }],
  ['GraphQL: createGame with a deadline of 0 and no reaction window', () => ({ gql: 'mutation { createGame(input: { scenarioId: "kernel-test", settings: { deadlineHours: 0 } }) { id } }' }), { status: 200, code: 'game/bad_options', field: 'deadlineHours', not: 'reactionHours' }],
  // A window of a few milliseconds could never be answered: it ran out before any player could read it.
  ['REST: createGame with a reaction window of a second', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { reactionHours: 1 / 3600 } })] }), { status: 400, code: 'game/bad_options', field: 'reactionHours' }],
  ['GraphQL: createGame with a reaction window of 1e-7 hours', () => ({ gql: 'mutation { createGame(input: { scenarioId: "kernel-test", settings: { reactionHours: 1e-7 } }) { id } }' }), { status: 200, code: 'game/bad_options', field: 'reactionHours' }],
  ['REST: createGame with a snapshot every 5 events', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { snapshotInterval: 5 } })] }), { status: 400, code: 'game/bad_options', field: 'snapshotInterval' }],
  ['REST: createGame with a huge forfeitAfter', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { forfeitAfter: 1e9 } })] }), { status: 400, code: 'game/bad_options', field: 'forfeitAfter' }],
  ['REST: createGame with a blank title', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', title: '   ' })] }), { status: 400, code: 'game/bad_title', field: 'title' }],
  ['GraphQL: createGame with an empty title', () => ({ gql: createGame, variables: { i: { scenarioId: 'kernel-test', title: '' } } }), { status: 200, code: 'game/bad_title', field: 'title' }],
  ['GraphQL: createGame with a title too long', () => ({ gql: createGame, variables: { i: { scenarioId: 'kernel-test', title: 'x'.repeat(201) } } }), { status: 200, code: 'game/bad_title', field: 'title' }],
  ['REST: createGame with a title of invisible characters', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', title: '\u200b\u2800\u3164' })] }), { status: 400, code: 'game/bad_title', field: 'title' }],
  ['GraphQL: createGame with a title that turns the text around it', () => ({ gql: createGame, variables: { i: { scenarioId: 'kernel-test', title: 'Operation \u202eratoG' } } }), { status: 200, code: 'game/bad_title', field: 'title' }],
  ['GraphQL: createGame with an unknown side', () => ({ gql: createGame, variables: { i: { scenarioId: 'kernel-test', side: 'Z' } } }), { status: 200, code: 'game/unknown_side' }],
  ['GraphQL: createGame with an unknown field', () => ({ gql: createGame, variables: { i: { scenarioId: 'kernel-test', colour: 'red' } } }), { status: 400, code: 'BAD_USER_INPUT', field: 'colour' }],
  // The same input had another code over REST, whose DTO answered before the check GraphQL uses.
  ['REST: createGame with an empty side', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', side: '' })] }), { status: 400, code: 'game/unknown_side' }],
  ['REST: createGame with a title too long', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', title: 'x'.repeat(201) })] }), { status: 400, code: 'game/bad_title', field: 'title' }],
  ['REST: createGame with an unknown timeout kind', () => ({ rest: ['post', '/api/v1/games', json({ scenarioId: 'kernel-test', settings: { timeoutKind: 'x' } })] }), { status: 400, code: 'game/bad_options', field: 'timeout.kind' }],
  ['REST: invite for an empty side', (c) => ({ rest: ['post', `/api/v1/games/${c.seating}/invitations`, json({ side: '' })] }), { status: 400, code: 'game/unknown_side' }],
  ['REST: join with an empty token', () => ({ rest: ['post', '/api/v1/join', json({ token: '' })] }), { status: 400, code: 'invitation/missing' }],
  ['GraphQL: join with an empty token', () => ({ gql: 'mutation($t: String) { joinGame(token: $t) { gameId } }', variables: { t: '' } }), { status: 200, code: 'invitation/missing' }],
  ['REST: submit with an empty idempotency key', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: [], idempotencyKey: '' })] }), { status: 400, code: 'request/idempotency_key', field: 'idempotencyKey' }],
  // The key was sent: "is required" sent the client looking for a missing field.
  ['REST: submit with an idempotency key too long', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: [], idempotencyKey: 'k'.repeat(201) })] }), { status: 400, code: 'request/idempotency_key', field: 'idempotencyKey', says: /too long/, not: 'required' }],
  ['REST: options with an empty targetHex', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/units/a-ship/options?targetHex=`] }), { status: 400, code: 'request/bad_hex', field: 'targetHex' }],
  ['GraphQL: options with an empty targetHex', (c) => ({ gql: options, variables: { g: c.active, u: 'a-ship', t: '' } }), { status: 200, code: 'request/bad_hex', field: 'targetHex' }],
  // Invitations and joining.
  ['REST: invite to a game of someone else', (c) => ({ rest: ['post', `/api/v1/games/${c.foreign}/invitations`, json({ side: 'B' })] }), { status: 404, code: 'game/not_found' }],
  ['REST: invite to a game with a huge id', () => ({ rest: ['post', `/api/v1/games/${huge}/invitations`, json({ side: 'B' })] }), { status: 404, code: 'game/not_found' }],
  ['GraphQL: invite for a huge side', (c) => ({ gql: invite, variables: { i: { gameId: c.seating, side: huge } } }), { status: 200, code: 'game/unknown_side' }],
  ['GraphQL: a huge value for an enum', () => ({ gql: 'query($f: MyGamesFilter) { myGames(filter: $f) { edges { cursor } } }', variables: { f: huge } }), { status: 400, code: 'BAD_USER_INPUT', field: '$f' }],
  ['REST: invite with a negative expiry', (c) => ({ rest: ['post', `/api/v1/games/${c.seating}/invitations`, json({ side: 'B', expiresInHours: -1 })] }), { status: 400, code: 'invitation/bad_expiry', field: 'expiresInHours' }],
  ['REST: invite with a fractional expiry (an invitation gone in 4 seconds)', (c) => ({ rest: ['post', `/api/v1/games/${c.seating}/invitations`, json({ side: 'B', expiresInHours: 0.001 })] }), { status: 400, code: 'invitation/bad_expiry', field: 'expiresInHours' }],
  ['GraphQL: invite with a huge expiry', (c) => ({ gql: invite, variables: { i: { gameId: c.seating, side: 'B', expiresInHours: 1_000_000 } } }), { status: 200, code: 'invitation/bad_expiry', field: 'expiresInHours' }],
  ['REST: join with neither token nor challenge', () => ({ rest: ['post', '/api/v1/join', '{}'] }), { status: 400, code: 'invitation/missing', field: 'token' }],
  ['REST: join with a number for a token', () => ({ rest: ['post', '/api/v1/join', json({ token: 5 })] }), { status: 400, code: 'request/invalid', field: 'token' }],
  ['GraphQL: join with an unknown token', () => ({ gql: 'mutation($t: String) { joinGame(token: $t) { gameId } }', variables: { t: 'inv_nope' } }), { status: 200, code: 'invitation/not_found' }],
  // Submitting orders.
  ['REST: submit with a negative version', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: -1, orders: [], idempotencyKey: 'neg' })] }), { status: 400, code: 'request/bad_version', field: 'expectedVersion' }],
  ['REST: submit with a version beyond any integer column', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: 2 ** 53, orders: [], idempotencyKey: 'huge' })] }), { status: 400, code: 'request/bad_version', field: 'expectedVersion' }],
  ['REST: submit with null orders', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: null, idempotencyKey: 'null' })] }), { status: 400, code: 'request/invalid', field: 'orders' }],
  ['REST: submit orders that are a string', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: 'x', idempotencyKey: 'str' })] }), { status: 400, code: 'orders/malformed' }],
  ['REST: submit a move with a path that is not a list', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: [{ kind: 'move', unit: 'a-ship', path: '0204' }], idempotencyKey: 'path' })] }), { status: 400, code: 'orders/malformed', field: 'path' }],
  ['REST: submit a move of the other side\'s unit', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: [{ kind: 'move', unit: 'b-m48', path: ['0504'] }], idempotencyKey: 'theirs' })] }), { status: 400, code: 'orders/illegal', field: 'b-m48' }],
  ['REST: submit to a game of someone else', (c) => ({ rest: ['post', `/api/v1/games/${c.foreign}/phases`, json({ expectedVersion: 1, orders: [], idempotencyKey: 'foreign' })] }), { status: 404, code: 'game/not_found' }],
  ['REST: submit to an unknown game', () => ({ rest: ['post', '/api/v1/games/game_nope/phases', json({ expectedVersion: 1, orders: [], idempotencyKey: 'unknown' })] }), { status: 404, code: 'game/not_found' }],
  ['REST: submit without an idempotency key', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: [] })] }), { status: 400, code: 'request/idempotency_key', field: 'idempotencyKey' }],
  // A check refuses the request as a submission does; only what the rules say of the orders is data.
  ['REST: check with a negative version', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases/check`, json({ expectedVersion: -1, orders: [] })] }), { status: 400, code: 'request/bad_version', field: 'expectedVersion' }],
  ['REST: check with null orders', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases/check`, json({ expectedVersion: c.version, orders: null })] }), { status: 400, code: 'request/invalid', field: 'orders' }],
  ['REST: check with an unknown kind', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases/check`, json({ expectedVersion: c.version, kind: 'wish', orders: [] })] }), { status: 400, code: 'request/invalid', field: 'kind' }],
  ['REST: check with an idempotency key, which a check has no use for', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases/check`, json({ expectedVersion: c.version, orders: [], idempotencyKey: 'k' })] }), { status: 400, code: 'request/invalid', field: 'idempotencyKey' }],
  ['REST: check in a game of someone else', (c) => ({ rest: ['post', `/api/v1/games/${c.foreign}/phases/check`, json({ expectedVersion: 1, orders: [] })] }), { status: 404, code: 'game/not_found' }],
  ['REST: check in an unknown game', () => ({ rest: ['post', '/api/v1/games/game_nope/phases/check', json({ expectedVersion: 1, orders: [] })] }), { status: 404, code: 'game/not_found' }],
  ['REST: check in a game still seating', (c) => ({ rest: ['post', `/api/v1/games/${c.seating}/phases/check`, json({ expectedVersion: 1, orders: [] })] }), { status: 409, code: 'game/not_started' }],
  // Over GraphQL these are refused as unreadable; over REST the name was dropped from the orders, and
  // what was left was carried out: the move below was made, the standing orders were cleared.
  ['REST: a legal move with a "constructor" field', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, json({ expectedVersion: c.version, orders: [{ kind: 'move', unit: 'a-ship', path: ['0204'], constructor: 1 }], idempotencyKey: 'ctor-move' })] }), { status: 400, code: 'orders/malformed', field: 'constructor' }],
  ['REST: standing orders for a reaction named "constructor"', (c) => ({ rest: ['put', `/api/v1/games/${c.active}/standing-orders`, json({ expectedVersion: c.version, orders: { constructor: 1 }, idempotencyKey: 'so-ctor' })] }), { status: 400, code: 'orders/malformed', field: 'constructor' }],
  ['REST: standing orders for a reaction named "__proto__"', (c) => ({ rest: ['put', `/api/v1/games/${c.active}/standing-orders`, `{"expectedVersion":${c.version},"orders":{"__proto__":{}},"idempotencyKey":"so-proto"}`] }), { status: 400, code: 'orders/malformed', field: '__proto__' }],
  ['REST: standing orders for an unknown reaction', (c) => ({ rest: ['put', `/api/v1/games/${c.active}/standing-orders`, json({ expectedVersion: c.version, orders: { nope: 'all' }, idempotencyKey: 'so' })] }), { status: 400, code: 'orders/malformed', field: 'nope' }],
  ['GraphQL: submit with a negative version', (c) => ({ gql: submit, variables: { i: { gameId: c.active, expectedVersion: -1, orders: [], idempotencyKey: 'gneg' } } }), { status: 200, code: 'request/bad_version', field: 'expectedVersion' }],
  ['GraphQL: submit with a fractional version', (c) => ({ gql: submit, variables: { i: { gameId: c.active, expectedVersion: 1.5, orders: [], idempotencyKey: 'gfrac' } } }), { status: 400, code: 'BAD_USER_INPUT', field: 'expectedVersion' }],
  ['GraphQL: submit with null orders', (c) => ({ gql: submit, variables: { i: { gameId: c.active, expectedVersion: c.version, orders: null, idempotencyKey: 'gnull' } } }), { status: 400, code: 'BAD_USER_INPUT', field: 'orders' }],
  ['GraphQL: submit with a huge idempotency key', (c) => ({ gql: submit, variables: { i: { gameId: c.active, expectedVersion: c.version, orders: [], idempotencyKey: 'k'.repeat(5000) } } }), { status: 200, code: 'request/idempotency_key', field: 'idempotencyKey', says: /too long/, not: 'required' }],
  ['GraphQL: submit orders of the wrong shape', (c) => ({ gql: submit, variables: { i: { gameId: c.active, expectedVersion: c.version, orders: [{ kind: 'move' }], idempotencyKey: 'gshape' } } }), { status: 200, code: 'orders/malformed', field: 'unit' }],
  ['GraphQL: check with a negative version', (c) => ({ gql: check, variables: { i: { gameId: c.active, expectedVersion: -1, orders: [] } } }), { status: 200, code: 'request/bad_version', field: 'expectedVersion' }],
  ['GraphQL: check with null orders', (c) => ({ gql: check, variables: { i: { gameId: c.active, expectedVersion: c.version, orders: null } } }), { status: 400, code: 'BAD_USER_INPUT', field: 'orders' }],
  ['GraphQL: check with an idempotency key', (c) => ({ gql: check, variables: { i: { gameId: c.active, expectedVersion: c.version, orders: [], idempotencyKey: 'k' } } }), { status: 400, code: 'BAD_USER_INPUT', field: 'idempotencyKey' }],
  ['GraphQL: check in a game of someone else', (c) => ({ gql: check, variables: { i: { gameId: c.foreign, expectedVersion: 1, orders: [] } } }), { status: 200, code: 'game/not_found' }],
  ['GraphQL: resign with a negative version', (c) => ({ gql: resign, variables: { g: c.active, v: -5 } }), { status: 200, code: 'request/bad_version', field: 'expectedVersion' }],
  ['GraphQL: resign from a game of someone else', (c) => ({ gql: resign, variables: { g: c.foreign, v: 1 } }), { status: 200, code: 'game/not_found' }],
  // Player actions over REST.
  ['REST: resign with a version as a string', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/resign`, json({ expectedVersion: String(c.version) })] }), { status: 400, code: 'request/invalid', field: 'expectedVersion' }],
  ['REST: resign with no body', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/resign`] }), { status: 400, code: 'request/invalid', field: 'expectedVersion' }],
  ['REST: vacation with an unknown field', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/vacation/start`, json({ expectedVersion: c.version, days: 3 })] }), { status: 400, code: 'request/invalid', field: 'days' }],
  // Reads with bad parameters.
  ['REST: a page size of zero', () => ({ rest: ['get', '/api/v1/games?limit=0'] }), { status: 400, code: 'request/bad_page_size' }],
  ['GraphQL: a page size of zero', () => ({ gql: '{ myGames(first: 0) { nodes { id } } }' }), { status: 200, code: 'request/bad_page_size' }],
  ['REST: a negative page size', () => ({ rest: ['get', '/api/v1/me/tokens?limit=-1'] }), { status: 400, code: 'request/bad_page_size' }],
  ['REST: a page size beyond the cap', () => ({ rest: ['get', '/api/v1/games?limit=100000'] }), { status: 400, code: 'request/bad_page_size' }],
  // Query integers are decimal digits: 0x10, 1e1 and " 5" were read as numbers.
  // The range of a version is checked where GraphQL's is: one code over both.
  ['REST: a version of 0', (c) => ({ rest: ['get', `/api/v1/games/${c.active}?atVersion=0`] }), { status: 400, code: 'request/bad_version', field: 'atVersion' }],
  ['GraphQL: a version of 0', (c) => ({ gql: 'query($g: ID!) { game(id: $g, atVersion: 0) { id } }', variables: { g: c.active } }), { status: 200, code: 'request/bad_version', field: 'atVersion' }],
  ['REST: history from version 0', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?fromVersion=0`] }), { status: 400, code: 'request/bad_version', field: 'fromVersion' }],
  ['REST: a page size in hexadecimal', () => ({ rest: ['get', '/api/v1/games?limit=0x10'] }), { status: 400, code: 'request/invalid', field: 'limit' }],
  ['REST: a version in exponent notation', (c) => ({ rest: ['get', `/api/v1/games/${c.active}?atVersion=1e1`] }), { status: 400, code: 'request/invalid', field: 'atVersion' }],
  ['REST: a history start after a space', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?fromVersion=%205`] }), { status: 400, code: 'request/invalid', field: 'fromVersion' }],
  // The path to a value nested too deep named every key on the way: 6,000 characters of input came back in `field`.
  ['REST: orders nested too deep under long keys', (c) => ({ rest: ['post', `/api/v1/games/${c.active}/phases`, `{"expectedVersion":${c.version},"idempotencyKey":"deep","orders":${`{"${'k'.repeat(200)}":`.repeat(40)}1${'}'.repeat(40)}}`] }), { status: 400, code: 'request/too_deep' }],
  ['REST: a query parameter named constructor', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?constructor=1`] }), { status: 400, code: 'request/invalid', field: 'constructor' }],
  // An empty cursor restarted a GraphQL list at its first page; REST refused it with another code.
  ['REST: an empty cursor', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?cursor=`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['GraphQL: an empty cursor', () => ({ gql: 'query($a: String) { myGames(after: $a) { nodes { id } } }', variables: { a: '' } }), { status: 200, code: 'request/bad_cursor', field: 'cursor' }],
  // Express reads a repeated parameter as a list, which every check of one value then refused ("at most 500 characters").
  ['REST: a cursor given twice', () => ({ rest: ['get', '/api/v1/games?cursor=a&cursor=a'] }), { status: 400, code: 'request/invalid', field: 'cursor', says: /more than once/, not: 'characters' }],
  ['REST: a history limit given twice', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?limit=1&limit=2`] }), { status: 400, code: 'request/invalid', field: 'limit', says: /more than once/, not: 'whole number' }],
  ['REST: a forged cursor', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?cursor=abc`] }), { status: 400, code: 'request/bad_cursor' }],
  ['REST: a version that does not exist yet', (c) => ({ rest: ['get', `/api/v1/games/${c.active}?atVersion=99999`] }), { status: 400, code: 'game/no_such_version', field: 'atVersion' }],
  ['REST: history from beyond the last version', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?fromVersion=99999`] }), { status: 400, code: 'game/no_such_version', field: 'fromVersion' }],
  ['GraphQL: history from beyond the last version', (c) => ({ gql: history, variables: { g: c.active, f: 99999 } }), { status: 200, code: 'game/no_such_version', field: 'fromVersion' }],
  // A cursor names no field the client filled in: one this game never handed out is refused as such.
  // A cursor and fromVersion each say where the page starts: fromVersion was silently ignored.
  ['REST: history with both a cursor and fromVersion', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?fromVersion=1&cursor=${encodeCursor('history', [c.active, 2])}`] }), { status: 400, code: 'request/invalid', field: 'fromVersion' }],
  ['GraphQL: history with both after and fromVersion', (c) => ({ gql: 'query($g: ID!, $a: String, $f: Int) { game(id: $g) { history(after: $a, fromVersion: $f) { edges { node { version } } } } }', variables: { g: c.active, a: encodeCursor('history', [c.active, 2]), f: 1 } }), { status: 200, code: 'request/invalid', field: 'fromVersion' }],
  ['REST: a history cursor of a longer game', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/history?cursor=${encodeCursor('history', [c.active, 99999])}`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['GraphQL: a history cursor beyond any version', (c) => ({ gql: historyAfter, variables: { g: c.active, a: encodeCursor('history', [c.active, 2 ** 40]) } }), { status: 200, code: 'request/bad_cursor', field: 'cursor' }],
  // A cursor is base64: what it decodes to passed no input check, and reached the query (a 500).
  ['REST: a games cursor with a date Postgres cannot hold', () => ({ rest: ['get', `/api/v1/games?cursor=${encodeCursor('games', ['-271821-04-20T00:00:00.000Z', 'game_x'])}`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['GraphQL: a games cursor in the year 0', () => ({ gql: 'query($a: String) { myGames(after: $a) { nodes { id } } }', variables: { a: encodeCursor('games', ['0000-01-01T00:00:00.000Z', 'game_x']) } }), { status: 200, code: 'request/bad_cursor', field: 'cursor' }],
  ['GraphQL: a games cursor holding NUL', () => ({ gql: 'query($a: String) { myGames(after: $a) { nodes { id } } }', variables: { a: encodeCursor('games', ['2026-01-01T00:00:00.000Z', 'game_\u0000']) } }), { status: 200, code: 'request/bad_cursor', field: 'cursor' }],
  ['REST: an open challenges cursor holding NUL', () => ({ rest: ['get', `/api/v1/invitations/open?cursor=${encodeCursor('challenges', ['2026-01-01T00:00:00.000Z', 'inv_\u0000'])}`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['GraphQL: an open challenges cursor holding half a surrogate pair', () => ({ gql: 'query($a: String) { openChallenges(after: $a) { nodes { id } } }', variables: { a: encodeCursor('challenges', ['2026-01-01T00:00:00.000Z', 'inv_\ud800']) } }), { status: 200, code: 'request/bad_cursor', field: 'cursor' }],
  ['GraphQL: a tokens cursor of another player\'s token', (c) => ({ gql: 'query($a: String) { me { apiTokens(after: $a) { nodes { id } } } }', variables: { a: encodeCursor('tokens', c.foreignToken) } }), { status: 200, code: 'request/bad_cursor', field: 'cursor' }],
  ['REST: a tokens cursor of another player\'s token', (c) => ({ rest: ['get', `/api/v1/me/tokens?cursor=${encodeCursor('tokens', c.foreignToken)}`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['REST: a tokens cursor holding NUL', () => ({ rest: ['get', `/api/v1/me/tokens?cursor=${encodeCursor('tokens', 'tok_\u0000')}`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['REST: a deliveries cursor holding NUL', () => ({ rest: ['get', `/api/v1/me/notifications/deliveries?cursor=${encodeCursor('deliveries', 'msg_\u0000')}`] }), { status: 400, code: 'request/bad_cursor', field: 'cursor' }],
  ['REST: a game with a huge id', () => ({ rest: ['get', `/api/v1/games/${huge}`] }), { status: 404, code: 'game/not_found' }],
  ['GraphQL: a game with a huge id', () => ({ gql: 'query($g: ID!) { game(id: $g) { id } }', variables: { g: huge } }), { status: 200, code: 'game/not_found' }],
  ['REST: options of an unknown unit', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/units/nope/options`] }), { status: 400, code: 'game/not_your_unit', field: 'unitId' }],
  ['REST: options of the other side\'s unit', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/units/b-m48/options`] }), { status: 400, code: 'game/not_your_unit', field: 'unitId' }],
  ['GraphQL: options of an unknown unit', (c) => ({ gql: options, variables: { g: c.active, u: 'nope' } }), { status: 200, code: 'game/not_your_unit', field: 'unitId' }],
  ['REST: options with a malformed targetHex', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/units/a-ship/options?targetHex=abc`] }), { status: 400, code: 'request/bad_hex', field: 'targetHex' }],
  ['REST: options with an off-map targetHex', (c) => ({ rest: ['get', `/api/v1/games/${c.active}/units/a-ship/options?targetHex=9999`] }), { status: 400, code: 'request/bad_hex', field: 'targetHex' }],
  ['GraphQL: options with an off-map targetHex', (c) => ({ gql: options, variables: { g: c.active, u: 'a-ship', t: '9999' } }), { status: 200, code: 'request/bad_hex', field: 'targetHex' }],
  ['REST: the board of a game of someone else', (c) => ({ rest: ['get', `/api/v1/games/${c.foreign}/view`] }), { status: 404, code: 'game/not_found' }],
  // Account and notifications.
  ['REST: a sign-in link for a malformed email', () => ({ rest: ['post', '/api/v1/auth/magic-links', json({ email: 'not-an-address' })] }), { status: 400, code: 'auth/invalid_email', field: 'email' }],
  ['GraphQL: a sign-in link for a malformed email', () => ({ gql: 'mutation($e: String!) { requestMagicLink(email: $e) { sent } }', variables: { e: 'not-an-address' } }), { status: 200, code: 'auth/invalid_email', field: 'email' }],
  ['REST: a sign-in link with a malformed time zone', () => ({ rest: ['post', '/api/v1/auth/magic-links', json({ email: 'alice@example.org', timeZone: 'Mars/Olympus' })] }), { status: 400, code: 'auth/invalid_time_zone', field: 'timeZone' }],
  ['REST: a token name too long', () => ({ rest: ['post', '/api/v1/me/tokens', json({ name: 'x'.repeat(5000) })] }), { status: 400, code: 'auth/invalid_token_name', field: 'name' }],
  ['GraphQL: an empty token name', () => ({ gql: 'mutation($n: String!) { createApiToken(name: $n) { token } }', variables: { n: '' } }), { status: 200, code: 'auth/invalid_token_name', field: 'name' }],
  ['REST: revoke an unknown token', () => ({ rest: ['delete', '/api/v1/me/tokens/nope'] }), { status: 404, code: 'auth/token_not_found' }],
  ['REST: notification settings that are a list', () => ({ rest: ['patch', '/api/v1/me/notifications', '[]'] }), { status: 400, code: 'request/invalid' }],
  ['REST: notification settings of the wrong type', () => ({ rest: ['patch', '/api/v1/me/notifications', json({ email: 'x' })] }), { status: 400, code: 'request/invalid', field: 'email' }],
  ['REST: a webhook URL that is not a URL', () => ({ rest: ['post', '/api/v1/me/notifications/webhooks', json({ url: 'nope' })] }), { status: 400, code: 'notifications/invalid_url' }],
  // Port 0 parses, but nothing can be sent to it: every delivery would fail until dead-lettered.
  ['REST: a webhook URL with port 0', () => ({ rest: ['post', '/api/v1/me/notifications/webhooks', json({ url: 'http://93.184.215.14:0/hook' })] }), { status: 400, code: 'notifications/invalid_url', field: 'port' }],
  ['GraphQL: a webhook URL with port 0', () => ({ gql: 'mutation($u: String!) { addWebhookEndpoint(url: $u) { secret } }', variables: { u: 'https://93.184.215.14:0/hook' } }), { status: 200, code: 'notifications/invalid_url', field: 'port' }],
  ['REST: a webhook for a game of someone else', (c) => ({ rest: ['post', '/api/v1/me/notifications/webhooks', json({ url: 'https://example.com/x', gameId: c.foreign })] }), { status: 404, code: 'game/not_found' }],
  ['REST: a Discord URL that is not Discord\'s', () => ({ rest: ['put', '/api/v1/me/notifications/discord', json({ url: 'https://example.com/x' })] }), { status: 400, code: 'notifications/invalid_discord_url' }],
  ['GraphQL: enable an unknown endpoint', () => ({ gql: 'mutation($i: ID!) { enableNotificationEndpoint(id: $i) { id } }', variables: { i: 'nope' } }), { status: 200, code: 'notifications/endpoint_not_found' }],
  // '' was taken for no game: the player's defaults were changed instead of a game's.
  ['GraphQL: settings for an empty game id', () => ({ gql: 'mutation($g: ID) { updateNotificationSettings(gameId: $g, input: { reminderLeadMinutes: 5 }) { gameId } }', variables: { g: '' } }), { status: 200, code: 'notifications/invalid_game', field: 'gameId' }],
  ['GraphQL: reading the settings of an empty game id', () => ({ gql: 'query($g: ID) { me { notificationSettings(gameId: $g) { gameId } } }', variables: { g: '' } }), { status: 200, code: 'notifications/invalid_game', field: 'gameId' }],
  ['GraphQL: the deliveries of an empty game id', () => ({ gql: 'query($g: ID) { me { notificationDeliveries(gameId: $g) { nodes { id } } } }', variables: { g: '' } }), { status: 200, code: 'notifications/invalid_game', field: 'gameId' }],
  ['GraphQL: clearing the settings of an empty game id', () => ({ gql: 'mutation($g: ID!) { clearGameNotificationSettings(gameId: $g) { digest } }', variables: { g: '' } }), { status: 200, code: 'notifications/invalid_game', field: 'gameId', not: 'leave it out' }],
  ['GraphQL: clearing the settings of a game id over 100 characters', () => ({ gql: 'mutation($g: ID!) { clearGameNotificationSettings(gameId: $g) { digest } }', variables: { g: 'g'.repeat(300) } }), { status: 200, code: 'notifications/invalid_game', field: 'gameId' }],
  ['GraphQL: clear the settings of a game of someone else', (c) => ({ gql: 'mutation($g: ID!) { clearGameNotificationSettings(gameId: $g) { digest } }', variables: { g: c.foreign } }), { status: 200, code: 'game/not_found' }],
];

/** A REST request with a body: the route as the OpenAPI document names it, the path to call, the body, headers. */
interface BodyRequest {
  route: string;
  path: string;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Every optional field of every REST body, each with a body that is otherwise what the route
 * takes (or as near as a shared game allows): null there must be answered as leaving the field
 * out is, as over GraphQL. A null title was a 500, a null side a side called "null".
 */
const OPTIONAL_FIELDS: Array<[field: string, base: (c: Ctx) => BodyRequest]> = [
  ...['title', 'side', 'settings'].map((f) => [f, () => ({ route: 'POST /api/v1/games', path: '/api/v1/games', body: { scenarioId: 'kernel-test', side: 'A' } })] as [string, () => BodyRequest]),
  ...['deadlineHours', 'reactionHours', 'timeoutKind', 'forfeitAfter', 'spectators', 'vacationDays', 'snapshotInterval'].map(
    (f) => [`settings.${f}`, () => ({ route: 'POST /api/v1/games', path: '/api/v1/games', body: { scenarioId: 'kernel-test', side: 'A', settings: { deadlineHours: 48 } } })] as [string, () => BodyRequest],
  ),
  ['targetHex', (c) => ({ route: 'POST /api/v1/games/{gameId}/units/{unitId}/options', path: `/api/v1/games/${c.active}/units/a-ship/options`, body: { after: [] } })],
  ['kind', (c) => ({ route: 'POST /api/v1/games/{gameId}/invitations', path: `/api/v1/games/${c.seating}/invitations`, body: { side: 'B' } })],
  ['expiresInHours', (c) => ({ route: 'POST /api/v1/games/{gameId}/invitations', path: `/api/v1/games/${c.seating}/invitations`, body: { side: 'B' } })],
  ['token', () => ({ route: 'POST /api/v1/join', path: '/api/v1/join', body: { invitationId: 'inv_nope' } })],
  ['invitationId', () => ({ route: 'POST /api/v1/join', path: '/api/v1/join', body: { token: 'inv_nope' } })],
  // Orders the rules refuse, so that nothing is written either way.
  ['kind', (c) => ({ route: 'POST /api/v1/games/{gameId}/phases', path: `/api/v1/games/${c.active}/phases`, body: { expectedVersion: c.version, orders: [{ kind: 'move', unit: 'b-m48', path: ['0504'] }], idempotencyKey: 'null-kind' } })],
  ['idempotencyKey', (c) => ({ route: 'POST /api/v1/games/{gameId}/phases', path: `/api/v1/games/${c.active}/phases`, body: { expectedVersion: c.version, orders: [{ kind: 'move', unit: 'b-m48', path: ['0504'] }] }, headers: { 'Idempotency-Key': 'null-key' } })],
  ['kind', (c) => ({ route: 'POST /api/v1/games/{gameId}/phases/check', path: `/api/v1/games/${c.active}/phases/check`, body: { expectedVersion: c.version, orders: [] } })],
  ['idempotencyKey', (c) => ({ route: 'POST /api/v1/games/{gameId}/reactions', path: `/api/v1/games/${c.active}/reactions`, body: { expectedVersion: c.version, answer: {} }, headers: { 'Idempotency-Key': 'null-react' } })],
  ['idempotencyKey', (c) => ({ route: 'PUT /api/v1/games/{gameId}/standing-orders', path: `/api/v1/games/${c.active}/standing-orders`, body: { expectedVersion: c.version, orders: { nope: 'all' } }, headers: { 'Idempotency-Key': 'null-standing' } })],
  ['displayName', () => ({ route: 'POST /api/v1/auth/magic-links', path: '/api/v1/auth/magic-links', body: { email: `${uniqueId('nulls')}@example.org` } })],
  ['timeZone', () => ({ route: 'POST /api/v1/auth/magic-links', path: '/api/v1/auth/magic-links', body: { email: `${uniqueId('nulls')}@example.org` } })],
  ['tokenName', () => ({ route: 'POST /api/v1/auth/magic-links/redeem', path: '/api/v1/auth/magic-links/redeem', body: { token: 'fpml_nope' } })],
  // The caller's own values, so that nothing else in this file sees a change.
  ['displayName', () => ({ route: 'PATCH /api/v1/me', path: '/api/v1/me', body: { timeZone: 'UTC' } })],
  ['timeZone', () => ({ route: 'PATCH /api/v1/me', path: '/api/v1/me', body: { displayName: 'Alice' } })],
  ...['email', 'webhook', 'discord', 'quietStart', 'quietEnd', 'noQuietHours', 'reminderLeadMinutes', 'digest'].map(
    (f) => [f, () => ({ route: 'PATCH /api/v1/me/notifications', path: '/api/v1/me/notifications', body: { digest: false } })] as [string, () => BodyRequest],
  ),
  ['gameId', () => ({ route: 'POST /api/v1/me/notifications/webhooks', path: '/api/v1/me/notifications/webhooks', body: { url: 'https://example.com/fieldpost-nulls' } })],
  ['gameId', () => ({ route: 'PUT /api/v1/me/notifications/discord', path: '/api/v1/me/notifications/discord', body: { url: 'https://discord.com/api/webhooks/123/abc' } })],
];

/** The body with `field` (dotted for a nested one) set to null. */
function withNull(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const [head, ...rest] = field.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...body, [head]: null };
  return { ...body, [head]: withNull((body[head] ?? {}) as Record<string, unknown>, rest.join('.')) };
}

/** The optional fields of a body schema, nested ones dotted, and whether the document says each may be null. */
function optionalFields(doc: OpenApiDocument, s: SchemaObject | undefined, at = ''): Array<{ field: string; nullable: boolean }> {
  if (s === undefined) return [];
  if (s.$ref) return optionalFields(doc, resolveRef(doc, s.$ref), at);
  return Object.entries(s.properties ?? {}).flatMap(([name, p]) => {
    const field = at + name;
    const own = s.required?.includes(name) ? [] : [{ field, nullable: p.nullable === true }];
    const inner = p.$ref ?? p.allOf?.[0]?.$ref;
    return [...own, ...(inner ? optionalFields(doc, resolveRef(doc, inner), `${field}.`) : [])];
  });
}

describe('bad input to every mutation and REST endpoint: a clear 4xx, a machine code, nothing written', () => {
  let app: ApiApp;
  let smtp: Awaited<ReturnType<typeof smtpCapture>>;
  let prisma: PrismaService;
  let alice: TestPlayer;
  let players: string[];
  const ctx = {} as Ctx;

  beforeAll(async () => {
    // A mail server, so that sign-in links are sent and their optional fields read.
    smtp = await smtpCapture();
    app = await apiApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) });
    prisma = testPrisma(2);
    alice = await app.player('Alice');
    const bob = await app.player('Bob');
    const eve = await app.player('Eve');
    ctx.foreignToken = eve.tokenId;
    players = [alice.id, bob.id, eve.id];
    ctx.active = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2)).gameId;
    ctx.seating = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    ctx.foreign = data(await app.gql(eve.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    ctx.version = data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: ctx.active }))['game'].version;
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await app.close();
    await smtp.close();
  });

  /** Rows these players own, table by table: other suites share the database, so only ours are counted. */
  async function rows(): Promise<Record<string, number>> {
    const [r] = await prisma.$queryRawUnsafe<Array<Record<string, number>>>(
      `WITH g AS (SELECT id FROM games WHERE created_by = ANY($1))
       SELECT (SELECT count(*) FROM g)::int AS games,
              (SELECT count(*) FROM events WHERE game_id IN (SELECT id FROM g))::int AS events,
              (SELECT count(*) FROM invitations WHERE game_id IN (SELECT id FROM g))::int AS invitations,
              (SELECT count(*) FROM seats WHERE player_id = ANY($1))::int AS seats,
              (SELECT count(*) FROM notifications WHERE player_id = ANY($1))::int AS outbox,
              (SELECT count(*) FROM api_tokens WHERE player_id = ANY($1))::int AS tokens,
              (SELECT count(*) FROM notification_endpoints WHERE player_id = ANY($1))::int AS endpoints,
              (SELECT count(*) FROM notification_preferences WHERE player_id = ANY($1))::int AS preferences`,
      players,
    );
    return r!;
  }

  async function send(s: Send): Promise<{ status: number; code: unknown; message: string; body: unknown }> {
    if ('gql' in s) {
      const r = await app.gql(alice.token, s.gql, s.variables);
      const e = r.body.errors?.[0];
      return { status: r.status, code: e?.extensions?.['errorCode'] ?? e?.extensions?.['code'], message: String(e?.message), body: r.body };
    }
    const [method, path, body, contentType] = s.rest;
    const req = request(app.http)[method](path).set('Authorization', `Bearer ${alice.token}`);
    const res = body === undefined ? await req : await req.set('Content-Type', contentType ?? 'application/json').send(body);
    const problem = res.body as { code?: unknown; detail?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
    if (problem.errors) return { status: res.status, code: problem.errors[0]?.extensions?.['code'], message: problem.errors[0]!.message, body: res.body };
    return { status: res.status, code: problem.code, message: String(problem.detail), body: res.body };
  }

  it('takes the snapshot interval a game is created with, over both APIs, and shows it in its settings', async () => {
    const rest = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${alice.token}`).send({ scenarioId: 'kernel-test', settings: { snapshotInterval: 25 } });
    expect(rest.status).toBe(201);
    expect(rest.body.game.settings).toMatchObject({ snapshotInterval: 25 });
    const gql = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", settings: { snapshotInterval: 40 } }) { settings { snapshotInterval } } }'));
    expect(gql['createGame'].settings).toEqual({ snapshotInterval: 40 });
    const plain = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test" }) { settings { snapshotInterval } } }'));
    expect(plain['createGame'].settings).toEqual({ snapshotInterval: 100 });
  });

  it('marks an answer to a body that cannot be read no-store, as every other answer of the API', async () => {
    for (const path of [`/api/v1/games/${ctx.active}/resign`, '/graphql']) {
      const res = await request(app.http).post(path).set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send('{"expectedVersion":');
      expect([path, res.status, res.headers['cache-control']]).toEqual([path, 400, 'no-store']);
    }
  });

  it('a query integer that is no number is one problem, naming its range', async () => {
    const res = await request(app.http).get(`/api/v1/games/${ctx.active}?atVersion=abc`).set('Authorization', `Bearer ${alice.token}`);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'atVersion', problems: ['atVersion must be a whole number, in at most 16 decimal digits'] }]);
    // A number with leading zeros is still refused past 16 digits, and the problem says why.
    const long = await request(app.http).get(`/api/v1/games/${ctx.active}/history?limit=00000000000000000001`).set('Authorization', `Bearer ${alice.token}`);
    expect(long.body.fields).toEqual([{ field: 'limit', problems: ['limit must be a whole number, in at most 16 decimal digits'] }]);
    const ok = await request(app.http).get(`/api/v1/games/${ctx.active}/history?fromVersion=2&limit=3`).set('Authorization', `Bearer ${alice.token}`);
    expect(ok.status).toBe(200);
    expect(ok.body.events.map((e: { version: number }) => e.version)).toEqual([2, 3, 4]);
  });

  it('an empty settings patch changes nothing, writes nothing and answers the settings in effect', async () => {
    const before = await rows();
    const current = await request(app.http).get('/api/v1/me/notifications').set('Authorization', `Bearer ${alice.token}`);
    const rest = await request(app.http).patch('/api/v1/me/notifications').set('Authorization', `Bearer ${alice.token}`).send({});
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 200, body: current.body });
    const gql = data(await app.gql(alice.token, 'mutation { updateNotificationSettings(input: {}) { digest reminderLeadMinutes } }'));
    expect(gql['updateNotificationSettings']).toEqual({ digest: current.body.digest, reminderLeadMinutes: current.body.reminderLeadMinutes });
    expect(await rows()).toEqual(before);
  });

  // The limits are said in characters, but were counted in UTF-16 units: a title of 200 emoji
  // (400 units) was refused, and a name the REST body check let through the service refused.
  it('counts the length limits of text in characters (an emoji is one), over REST and GraphQL alike', async () => {
    const gator = (n: number) => '\u{1F40A}'.repeat(n);
    const auth = { Authorization: `Bearer ${alice.token}` };
    const restGame = await request(app.http).post('/api/v1/games').set(auth).send({ scenarioId: 'kernel-test', title: gator(200) });
    expect({ status: restGame.status, title: restGame.body.game?.title }).toEqual({ status: 201, title: gator(200) });
    const gqlGame = await app.gql(alice.token, 'mutation($i: CreateGameInput!) { createGame(input: $i) { title } }', { i: { scenarioId: 'kernel-test', title: gator(200) } });
    expect(data(gqlGame)['createGame'].title).toBe(gator(200));
    const longTitle = await request(app.http).post('/api/v1/games').set(auth).send({ scenarioId: 'kernel-test', title: gator(201) });
    expect({ status: longTitle.status, code: longTitle.body.code }).toEqual({ status: 400, code: 'game/bad_title' });

    const restToken = await request(app.http).post('/api/v1/me/tokens').set(auth).send({ name: gator(100) });
    expect({ status: restToken.status, name: restToken.body.apiToken?.name ?? restToken.body.name }).toEqual({ status: 201, name: gator(100) });
    const gqlToken = await app.gql(alice.token, 'mutation($n: String!) { createApiToken(name: $n) { apiToken { name } } }', { n: gator(100) });
    expect(data(gqlToken)['createApiToken'].apiToken.name).toBe(gator(100));
    const longToken = await request(app.http).post('/api/v1/me/tokens').set(auth).send({ name: gator(101) });
    expect({ status: longToken.status, code: longToken.body.code }).toEqual({ status: 400, code: 'auth/invalid_token_name' });

    const restEmail = `${uniqueId('gator')}@example.org`;
    const restLink = await request(app.http).post('/api/v1/auth/magic-links').send({ email: restEmail, displayName: gator(60) });
    expect(restLink.status).toBe(202);
    const gqlEmail = `${uniqueId('gator')}@example.org`;
    data(await app.gql(null, 'mutation($e: String!, $d: String) { requestMagicLink(email: $e, displayName: $d) { sent } }', { e: gqlEmail, d: gator(60) }));
    const names = await prisma.player.findMany({ where: { email: { in: [restEmail, gqlEmail] } }, select: { displayName: true } });
    expect(names).toEqual([{ displayName: gator(60) }, { displayName: gator(60) }]);
    const longName = await request(app.http).post('/api/v1/auth/magic-links').send({ email: `${uniqueId('gator')}@example.org`, displayName: gator(61) });
    expect({ status: longName.status, code: longName.body.code }).toEqual({ status: 400, code: 'auth/invalid_display_name' });

    // A key of 200 characters is taken: the orders, which the rules refuse, are what is refused.
    const key = await request(app.http).post(`/api/v1/games/${ctx.active}/phases`).set(auth).send({ expectedVersion: ctx.version, orders: [{ kind: 'move', unit: 'b-m48', path: ['0504'] }], idempotencyKey: gator(200) });
    expect({ status: key.status, code: key.body.code }).toEqual({ status: 400, code: 'orders/illegal' });
    const longKey = await request(app.http).post(`/api/v1/games/${ctx.active}/phases`).set(auth).send({ expectedVersion: ctx.version, orders: [], idempotencyKey: gator(201) });
    expect({ status: longKey.status, code: longKey.body.code }).toEqual({ status: 400, code: 'request/idempotency_key' });
  });

  it('an invitation with expiresInHours null gets the default (two weeks), as one without it', async () => {
    const res = await request(app.http).post(`/api/v1/games/${ctx.seating}/invitations`).set('Authorization', `Bearer ${alice.token}`).send({ side: 'B', expiresInHours: null });
    expect(res.status).toBe(201);
    const hours = (Date.parse(res.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(335);
    expect(hours).toBeLessThanOrEqual(336);
  });

  it('names the cursor at fault when it is another player\'s token, as for any other list', async () => {
    const rest = await request(app.http).get(`/api/v1/me/tokens?cursor=${encodeCursor('tokens', ctx.foreignToken)}`).set('Authorization', `Bearer ${alice.token}`);
    expect({ status: rest.status, code: rest.body.code, field: rest.body.field }).toEqual({ status: 400, code: 'request/bad_cursor', field: 'cursor' });
    const gql = await app.gql(alice.token, 'query($a: String) { me { apiTokens(after: $a) { nodes { id } } } }', { a: encodeCursor('tokens', ctx.foreignToken) });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ errorCode: 'request/bad_cursor', field: 'after' });
  });

  it('reads a gzip body, and refuses an encoding it cannot read with a message naming the ones it can', async () => {
    const body = gzipSync(json({ scenarioId: 'kernel-test', side: 'A' }));
    const created = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').serialize((b: unknown) => b as string).send(body);
    expect(created.status).toBe(201);
    expect(created.body.game).toMatchObject({ mySide: 'A', status: 'seating' });
    const before = await rows();
    const refused = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').set('Content-Encoding', 'compress').serialize((b: unknown) => b as string).send(body);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 415, code: 'http/unsupported_media_type' });
    expect(refused.body.detail).toMatch(/gzip, deflate or br/);
    expect(refused.body.detail).not.toMatch(/uncompressed/);
    expect(await rows()).toEqual(before);
  });

  it('refuses a body that is not UTF-8 (the parser would store U+FFFD in its place), over REST and GraphQL, and writes nothing', async () => {
    const before = await rows();
    const latin1 = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const rest = await request(app.http).post('/api/v1/me/tokens').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').serialize((b: unknown) => b as string).send(latin1);
    expect({ status: rest.status, code: rest.body.code, detail: rest.body.detail }).toEqual({ status: 400, code: 'http/malformed_body', detail: 'The request body is not valid UTF-8.' });
    const gqlBody = Buffer.concat([Buffer.from('{"query":"mutation { createApiToken(name: \\"'), Buffer.from([0xc3, 0x28]), Buffer.from('\\") { token } }"}')]);
    const gql = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').serialize((b: unknown) => b as string).send(gqlBody);
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0]).toMatchObject({ message: 'The request body is not valid UTF-8.', extensions: { code: 'BAD_USER_INPUT' } });
    expect(await rows()).toEqual(before);
  });

  it('pages history up to the next version, where the page is empty: the place to poll from', async () => {
    const next = ctx.version + 1;
    const rest = await request(app.http).get(`/api/v1/games/${ctx.active}/history?fromVersion=${next}`).set('Authorization', `Bearer ${alice.token}`);
    expect({ status: rest.status, events: rest.body.events, nextCursor: rest.body.nextCursor }).toEqual({ status: 200, events: [], nextCursor: null });
    const gql = data(await app.gql(alice.token, history, { g: ctx.active, f: next }));
    expect(gql['game'].history.edges).toEqual([]);
    const beyond = await request(app.http).get(`/api/v1/games/${ctx.active}/history?fromVersion=${next + 1}`).set('Authorization', `Bearer ${alice.token}`);
    expect({ status: beyond.status, code: beyond.body.code }).toEqual({ status: 400, code: 'game/no_such_version' });
  });

  it('answers options for the other side\'s unit exactly as for a unit that does not exist', async () => {
    const ask = (unit: string) => request(app.http).get(`/api/v1/games/${ctx.active}/units/${unit}/options`).set('Authorization', `Bearer ${alice.token}`);
    const [theirs, none] = await Promise.all([ask('b-m48'), ask('b-m49')]);
    expect(theirs.status).toBe(400);
    expect(JSON.stringify(theirs.body).replaceAll('b-m48', 'ID')).toEqual(JSON.stringify(none.body).replaceAll('b-m49', 'ID'));
    const [gTheirs, gNone] = await Promise.all([app.gql(alice.token, options, { g: ctx.active, u: 'b-m48' }), app.gql(alice.token, options, { g: ctx.active, u: 'b-m49' })]);
    expect(gTheirs.body.errors).toHaveLength(1);
    expect(JSON.stringify(gTheirs.body).replaceAll('b-m48', 'ID')).toEqual(JSON.stringify(gNone.body).replaceAll('b-m49', 'ID'));
  });

  it('takes null in an optional REST field as the field left out: the defaults, as over GraphQL', async () => {
    const post = (path: string, body: unknown) => request(app.http).post(path).set('Authorization', `Bearer ${alice.token}`).send(body as object);
    const plain = await post('/api/v1/games', { scenarioId: 'kernel-test', side: 'A' });
    const nullTitle = await post('/api/v1/games', { scenarioId: 'kernel-test', side: 'A', title: null });
    expect(nullTitle.status).toBe(201);
    expect(nullTitle.body.game.title).toBe(plain.body.game.title);
    const nullSide = await post('/api/v1/games', { scenarioId: 'kernel-test', side: null });
    expect(nullSide.status).toBe(201);
    // An organiser's game, as GraphQL's createGame(side: null) makes: no seat taken.
    expect(nullSide.body.game).toMatchObject({ mySide: null, status: 'seating' });
    const gqlOrganised = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: null }) { mySide } }'))['createGame'];
    expect(gqlOrganised).toEqual({ mySide: null });
    for (const field of ['displayName', 'timeZone']) {
      const email = `${uniqueId('nulls')}@example.org`;
      const asked = await request(app.http).post('/api/v1/auth/magic-links').send({ email, [field]: null });
      expect([field, asked.status]).toEqual([field, 202]);
      const player = await prisma.player.findUniqueOrThrow({ where: { email } });
      expect(player.timeZone).toBe('UTC');
      expect(player.displayName).toMatch(/^Player /);
    }
  });

  it('refuses null in a required REST field as the field left out, naming it', async () => {
    const before = await rows();
    const res = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${alice.token}`).send({ scenarioId: null, title: null });
    expect({ status: res.status, code: res.body.code, fields: res.body.fields }).toEqual({ status: 400, code: 'request/invalid', fields: [{ field: 'scenarioId', problems: ['scenarioId is required'] }] });
    expect(res.body.detail).toContain('scenarioId');
    expect(await rows()).toEqual(before);
  });

  it('lists every optional field of every REST body below, and the OpenAPI document says each may be null', async () => {
    const doc = (await request(app.http).get('/docs-json')).body as OpenApiDocument;
    const documented = operations(doc).flatMap(({ key, operation }) => optionalFields(doc, operation.requestBody?.content?.['application/json']?.schema).map((f) => ({ ...f, field: `${key} ${f.field}` })));
    const listed = OPTIONAL_FIELDS.map(([field, base]) => `${base(ctx).route} ${field}`);
    expect(documented.map((f) => f.field).sort()).toEqual([...listed].sort());
    expect(documented.filter((f) => !f.nullable).map((f) => f.field)).toEqual([]);
  });

  it.each(OPTIONAL_FIELDS)('REST: %s null is answered as the field left out', async (field, base) => {
    const { path, body, headers = {}, route } = base(ctx);
    const method = route.split(' ')[0]!.toLowerCase() as 'post' | 'put' | 'patch';
    const send = (b: unknown) => request(app.http)[method](path).set('Authorization', `Bearer ${alice.token}`).set(headers).send(b as object);
    const omitted = await send(body);
    const nulled = await send(withNull(body, field));
    expect(nulled.status).toBeLessThan(500);
    expect({ status: nulled.status, code: nulled.body.code }).toEqual({ status: omitted.status, code: omitted.body.code });
  });

  it.each(CASES)('%s', async (_name, make, expected) => {
    const before = await rows();
    const res = await send(make(ctx));
    expect({ status: res.status, code: res.code }).toEqual({ status: expected.status, code: expected.code });
    if (expected.field) expect(res.message).toContain(expected.field);
    if (expected.says) expect(res.message).toMatch(expected.says);
    if (expected.not) expect(res.message).not.toContain(expected.not);
    expect(res.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
    // Nothing else in the answer repeats a huge input either (a problem document's instance).
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
    expect(JSON.stringify(res.body)).not.toMatch(STACK);
    expect(await rows()).toEqual(before);
  });
});
