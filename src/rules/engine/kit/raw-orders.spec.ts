import fc from 'fast-check';
import { rawOrdersSchema, readRawOrders } from './raw-orders';

/** What zod alone says of a submission's orders (readRawOrders answers most lists without it). */
function byZod(x: unknown): { endPhase: boolean | undefined } | null {
  const r = rawOrdersSchema.safeParse(x);
  return !r.success ? null : Array.isArray(r.data) ? { endPhase: undefined } : { endPhase: r.data.endPhase };
}

const sym = Symbol('s');
const odd: unknown[] = [
  [],
  [{}],
  [{ kind: 'move' }, null],
  [[]],
  [Object.create(null)],
  [{ constructor: 1 }],
  [{ constructor: () => 0 }],
  [JSON.parse('{"__proto__": {"kind": "x"}}')],
  [{ [sym]: 1 }],
  [new Date(0)],
  [new Map()],
  [, { kind: 'move' }],
  { orders: [{ kind: 'move' }], endPhase: true },
  { orders: [{ kind: 'move' }], endPhase: 'yes' },
  { orders: [{ kind: 'move' }], extra: 1 },
  'orders',
  null,
];

describe('readRawOrders', () => {
  it('accepts and refuses what the schema does, with the same endPhase', () => {
    for (const x of odd) expect(readRawOrders(x)).toEqual(byZod(x));
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.anything()), fc.record({ orders: fc.array(fc.anything()), endPhase: fc.anything() }, { requiredKeys: ['orders'] }), fc.anything()), (x) => {
        expect(readRawOrders(x)).toEqual(byZod(x));
      }),
      { numRuns: 2000 },
    );
  });
});
