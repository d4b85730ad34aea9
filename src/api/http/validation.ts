import { ValidationError, ValidationPipe } from '@nestjs/common';
import { BadInputError } from '../../common/errors';

function flatten(errors: ValidationError[], parent = ''): Array<{ field: string; problems: string[] }> {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Request bodies and query strings are checked against their DTO classes; a bad one is a
 * 400 problem document that names every field at fault (`fields`).
 */
export const apiValidation = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
  exceptionFactory: (errors) => {
    const fields = flatten(errors);
    const summary = fields.map((f) => `${f.field}: ${f.problems.join(', ')}`).join('; ');
    return new BadInputError('request/invalid', `The request is not valid: ${summary}`, { fields });
  },
});
