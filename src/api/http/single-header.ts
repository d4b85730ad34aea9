import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { BadInputError } from '../../common/errors';

/**
 * A request header's value, or undefined if it was not sent; one sent more than once is refused.
 * Node joins the lines of such a header into one value ("a, b"), so an Idempotency-Key sent
 * twice became a third key: a retry sending it once was then a new request, not a retry.
 */
export const SingleHeader = createParamDecorator((name: string, ctx: ExecutionContext): string | undefined => {
  const values = ctx.switchToHttp().getRequest<Request>().headersDistinct[name.toLowerCase()];
  if (values !== undefined && values.length > 1) {
    throw new BadInputError('http/repeated_header', `The ${name} header was sent ${values.length} times: send it once.`, { field: name });
  }
  return values?.[0];
});
