import { secretsApplied } from '../rules/engine/kit/sealed-secrets';
import { orderCancelled } from '../rules/engine/events';
import { eventAsSeenBy } from '../rules/engine/visibility';
import { describeAnswer, describeLines } from './describe-event';

/** A notice lists what its reader may read: a side's own records open up, the others' give nothing to say. */
function linesFor(side: string, records: ReturnType<typeof orderCancelled>[]): string[] {
  const seen = eventAsSeenBy(secretsApplied('P1', records), side)!;
  return describeLines({ version: 7, type: seen.type, data: seen.data, time: '2026-01-01T00:00:00.000Z' });
}

describe('the notice lines of a SecretOrdersApplied', () => {
  const two = [orderCancelled('P1', 1, 'unload', { message: 'not next to it', ruleId: 'GT-6F.1' }), orderCancelled('P1', 2, 'unload', { message: 'not next to it', ruleId: 'GT-6F.1' })];

  it('opens up for its side, a line for each of its records', () => {
    expect(linesFor('P1', two)).toEqual(['Order Cancelled: side P1, reason not next to it', 'Order Cancelled: side P1, reason not next to it']);
    expect(linesFor('P1', [])).toEqual([]);
  });

  it('gives the other side no line, whatever it holds, as their versions tell only that it was written', () => {
    expect(linesFor('P2', two)).toEqual([]);
    expect(linesFor('P2', [])).toEqual([]);
  });
});

describe('a reaction answer in one line', () => {
  it('names each field, a list by its items, a path by its steps, and nothing as none', () => {
    expect(describeAnswer({ attackers: ['d-1', 'd-2'] })).toBe('attackers d-1, d-2');
    expect(describeAnswer({ attackers: [] })).toBe('attackers none');
    expect(describeAnswer({ jettison: null })).toBe('jettison none');
    expect(describeAnswer({ path: ['1607', '1608'] })).toBe('path 1607→1608');
    expect(describeAnswer({ unit: 'b-m48', to: '0404' })).toBe('unit b-m48; to 0404');
    expect(describeAnswer({})).toBe('none');
  });
});
