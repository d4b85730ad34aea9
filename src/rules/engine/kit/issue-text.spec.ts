import { z } from 'zod';
import { issueText } from './issue-text';

/** The shape of Gators! anti-landing standing orders: two words, or one of three object forms. */
const standing = z.union([
  z.literal('all'),
  z.literal('none'),
  z.strictObject({ units: z.array(z.string()).max(3) }),
  z.strictObject({ allExcept: z.array(z.string()).max(3) }),
  z.strictObject({ hexes: z.array(z.string()).min(1) }),
]);
const text = (input: unknown) => {
  const r = standing.safeParse(input);
  if (r.success) throw new Error('expected a refusal');
  return issueText('anti-landing', r.error.issues, input);
};

describe('issueText', () => {
  it('names the entry at fault in the form the client wrote', () => {
    expect(text({ units: ['a', 7] })).toMatch(/^anti-landing\.units\.1: /);
    expect(text({ allExcept: 'a' })).toMatch(/^anti-landing\.allExcept: /);
    expect(text({ hexes: [] })).toMatch(/^anti-landing\.hexes: /);
  });

  it('never names a key the client did not send', () => {
    // Every object form fails here for a key it lacks: none was what the client meant.
    expect(text({})).toBe('anti-landing: Invalid input (an object here takes one of: units, allExcept, hexes)');
    expect(text({ unit: ['a'] })).not.toMatch(/anti-landing\.(units|allExcept|hexes)/);
  });

  it('keeps the form the client wrote when it also sent a key no form takes', () => {
    expect(text({ units: [7], extra: 1 })).toMatch(/^anti-landing\.units\.0: .*; anti-landing: Unrecognized key: "extra"$/);
  });

  it('keeps the root message for a value of no form', () => {
    expect(text('some')).toBe('anti-landing: Invalid input');
  });
});
