import { NotFoundException } from '@nestjs/common';
import { VersionConflictError } from '../event-store/event-store.errors';
import { clientMessage, domainExtensions, toProblem } from './error-mapping';
import { BadInputError, ForbiddenError, NotFoundError, UnauthenticatedError } from './errors';

describe('toProblem', () => {
  it.each([
    [new BadInputError('orders/malformed', 'bad', { violations: [{ ruleId: 'GT-6C.2' }] }), 400, 'orders/malformed'],
    [new NotFoundError('game/not_found', 'no game'), 404, 'game/not_found'],
    [new UnauthenticatedError(), 401, 'auth/unauthenticated'],
    [new ForbiddenError('game/not_your_seat', 'no'), 403, 'game/not_your_seat'],
    [new VersionConflictError('g1', 3, 5), 409, 'game/version_conflict'],
  ])('maps %p to %i', (error, status, code) => {
    const { problem, internal } = toProblem(error, '/x');
    expect(internal).toBe(false);
    expect(problem).toMatchObject({ status, code, detail: error.message, instance: '/x' });
    expect(problem.type).toContain(code);
  });

  it('carries the current version on a conflict and the violations on bad input', () => {
    expect(toProblem(new VersionConflictError('g1', 3, 5)).problem).toMatchObject({ currentVersion: 5, expectedVersion: 3 });
    expect(toProblem(new BadInputError('orders/illegal', 'x', { violations: [1] })).problem['violations']).toEqual([1]);
  });

  it('keeps framework 4xx errors and hides everything else behind a bare 500', () => {
    expect(toProblem(new NotFoundException('Cannot GET /x')).problem).toMatchObject({ status: 404, code: 'http/not_found' });
    const { problem, internal } = toProblem(new TypeError('secret internals at line 3'));
    expect(internal).toBe(true);
    expect(problem.status).toBe(500);
    expect(JSON.stringify(problem)).not.toContain('secret');
  });
});

describe('clientMessage', () => {
  it('cuts a long word of input with an ellipsis and leaves ordinary messages alone', () => {
    expect(clientMessage('No game game_123 that you can see.')).toBe('No game game_123 that you can see.');
    const cut = clientMessage(`No game ${'x'.repeat(5000)} that you can see.`);
    expect(cut).toBe(`No game ${'x'.repeat(64)}… that you can see.`);
  });

  it('caps the whole message, and never splits a character in two', () => {
    const spaced = clientMessage(`Side ${'ab '.repeat(2000)}is unknown.`);
    expect([...spaced].length).toBe(400);
    expect(spaced.endsWith('…')).toBe(true);
    expect(clientMessage('😀'.repeat(100))).toBe(`${'😀'.repeat(64)}…`);
  });

  it('cuts the details that repeat input as it cuts the message: each violation, each field at fault and its problems', () => {
    const long = 'U'.repeat(150);
    const error = new BadInputError('game/not_your_unit', `unitId names no unit of yours: P1 has no unit "${long}"`, {
      field: 'unitId',
      violations: [{ ruleId: 'GT-1', code: 'input/unknown_unit', message: `P1 has no unit "${long}"`, orderIndex: 0 }],
      fields: [{ field: long, problems: [`property ${long} should not exist`] }],
    });
    const cut = `"${'U'.repeat(63)}…`;
    const { problem } = toProblem(error);
    expect(problem['violations']).toEqual([{ ruleId: 'GT-1', code: 'input/unknown_unit', message: `P1 has no unit ${cut}`, orderIndex: 0 }]);
    expect(problem['fields']).toEqual([{ field: `${'U'.repeat(64)}…`, problems: [`property ${'U'.repeat(64)}… should not exist`] }]);
    expect(domainExtensions(error)['violations']).toEqual(problem['violations']);
    expect(problem['field']).toBe('unitId');
  });

  it('is what a problem document says', () => {
    expect(toProblem(new NotFoundError('game/not_found', `No game ${'y'.repeat(1000)}.`)).problem.detail).toBe(`No game ${'y'.repeat(64)}…`);
  });
});
