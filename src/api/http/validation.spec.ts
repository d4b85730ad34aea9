import type { Type } from '@nestjs/common';
import { BadInputError } from '../../common/errors';
import { SubmitPhaseDto, VersionDto } from '../play/play.dto';
import { apiValidation } from './validation';

const refusal = (body: unknown, metatype: Type) =>
  apiValidation.transform(body, { type: 'body', metatype }).then(
    () => null,
    (err: unknown) => (err instanceof BadInputError ? err.details['fields'] : err),
  );

describe('the REST validation pipe', () => {
  it('says that a missing field is required, rather than listing the checks a value would have to pass', async () => {
    await expect(refusal({}, VersionDto)).resolves.toEqual([{ field: 'expectedVersion', problems: ['expectedVersion is required'] }]);
    await expect(refusal({ expectedVersion: 1 }, SubmitPhaseDto)).resolves.toEqual([{ field: 'orders', problems: ['orders is required'] }]);
  });

  it('still names what is wrong with a value that was sent', async () => {
    await expect(refusal({ expectedVersion: 1.5 }, VersionDto)).resolves.toEqual([{ field: 'expectedVersion', problems: ['expectedVersion must be an integer number'] }]);
  });

  it('takes null as the field left out: dropped from an optional field, required of a required one', async () => {
    await expect(refusal({ expectedVersion: null }, VersionDto)).resolves.toEqual([{ field: 'expectedVersion', problems: ['expectedVersion is required'] }]);
    await expect(apiValidation.transform({ expectedVersion: 1, orders: [null], kind: null, idempotencyKey: null }, { type: 'body', metatype: SubmitPhaseDto })).resolves.toEqual({ expectedVersion: 1, orders: [null] });
  });
});
