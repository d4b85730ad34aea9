import { NotFoundException } from '@nestjs/common';
import { VersionConflictError } from '../event-store/event-store.errors';
import { toProblem } from './error-mapping';
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
