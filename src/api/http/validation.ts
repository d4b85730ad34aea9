import { applyDecorators, ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { getMetadataStorage, IS_OPTIONAL, ValidateBy, ValidationTypes } from 'class-validator';
import { BadInputError } from '../../common/errors';

interface FieldProblems {
  field: string;
  problems: string[];
}

function flatten(errors: ValidationError[], parent = ''): FieldProblems[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    // A field left out breaks every check a value would have to pass; listing them (an integer, at
    // least 0, ...) hid that nothing was sent. Optional fields raise nothing when left out.
    // null is how JSON leaves a field out (see withoutNulls), so it is named the same way.
    const problems = e.value === undefined || e.value === null ? [`${field} is required`] : Object.values(e.constraints ?? {});
    const own = e.constraints ? [{ field, problems }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

function invalid(fields: FieldProblems[]): BadInputError {
  const summary = fields.map((f) => `${f.field}: ${f.problems.join(', ')}`).join('; ');
  return new BadInputError('request/invalid', `The request is not valid: ${summary}`, { fields });
}

const rawJsonFields = new WeakMap<object, string[]>();

/**
 * A JSON value the DTO passes on as the client sent it (orders, a reaction answer): the game
 * system reads it. The validation pipe deletes keys named "constructor", "prototype" and
 * "__proto__" at any depth, and class-transformer leaves out keys named like what every object
 * has, so without this REST orders lost keys that the rules engine refuses when GraphQL passes
 * them on, and what was left of them was carried out.
 */
export function RawJson(): PropertyDecorator {
  return (target, key) => {
    rawJsonFields.set(target, [...(rawJsonFields.get(target) ?? []), String(key)]);
  };
}

function rawFieldsOf(metatype: Function | undefined): string[] {
  const fields: string[] = [];
  for (let proto = metatype?.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) fields.push(...(rawJsonFields.get(proto) ?? []));
  return fields;
}

/**
 * Keys of a body or query named like what every object has. The validation pipe and
 * class-transformer drop them before class-validator can refuse them as unknown, so they were
 * accepted and ignored. Looks into the DTO's nested DTOs, not into its RawJson values, whose
 * keys the game system judges.
 */
function inheritedNames(value: unknown, metatype: Function | undefined, at = ''): FieldProblems[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const nested = new Set(metatype ? getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).filter((m) => m.type === ValidationTypes.NESTED_VALIDATION).map((m) => m.propertyName) : []);
  return Object.keys(value).flatMap((key) => {
    const field = at ? `${at}.${key}` : key;
    if (key in Object.prototype || key === 'prototype') return [{ field, problems: [`property ${field} should not exist`] }];
    return nested.has(key) ? inheritedNames((value as Record<string, unknown>)[key], undefined, field) : [];
  });
}

/**
 * The DTO with every optional field that holds null removed, in its nested DTOs too: null in an
 * optional field means "left out", as it does over GraphQL. @IsOptional lets null through
 * unchecked, so it reached code that reads a field as either absent or of its type (a 500 for a
 * null title, side "null" for a null side). Done here, once for every route; a required field's
 * null is still refused by its checks.
 */
function withoutNulls(dto: unknown): void {
  if (Array.isArray(dto)) return dto.forEach(withoutNulls);
  if (dto === null || typeof dto !== 'object') return;
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto.constructor, '', true, false);
  const optional = new Set(metadata.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION && m.name === IS_OPTIONAL).map((m) => m.propertyName));
  const record = dto as Record<string, unknown>;
  for (const key of optional) if (record[key] === null) delete record[key];
  for (const m of metadata) if (m.type === ValidationTypes.NESTED_VALIDATION) withoutNulls(record[m.propertyName]);
}

/**
 * Query parameters sent more than once (?cursor=a&cursor=b) that the DTO takes once. Express reads
 * them as a list, which each check of one value then refused with a message about the value ("at
 * most 500 characters"), not about the repetition.
 */
function repeatedParameters(query: object, metatype: Function | undefined): FieldProblems[] {
  const lists = new Set(metatype ? getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).filter((m) => m.name === 'isArray').map((m) => m.propertyName) : []);
  return Object.entries(query)
    .filter(([key, v]) => Array.isArray(v) && !lists.has(key))
    .map(([field]) => ({ field, problems: [`${field} was given more than once: send it once`] }));
}

class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (!this.toValidate(metadata) || (metadata.type !== 'body' && metadata.type !== 'query') || value === null || typeof value !== 'object') return super.transform(value, metadata);
    const refused = [...inheritedNames(value, metadata.metatype), ...(metadata.type === 'query' ? repeatedParameters(value, metadata.metatype) : [])];
    if (refused.length > 0) {
      const others = await super.transform(value, metadata).then(
        () => [],
        (err: unknown) => {
          if (err instanceof BadInputError && err.code === 'request/invalid') return err.details['fields'] as FieldProblems[];
          throw err;
        },
      );
      throw invalid([...refused, ...others.filter((o) => !refused.some((r) => r.field === o.field))]);
    }
    // Copied before super.transform strips them in place; the input guards have bounded their depth.
    const raw = rawFieldsOf(metadata.metatype).filter((f) => Object.hasOwn(value, f)).map((f) => [f, structuredClone((value as Record<string, unknown>)[f])] as const);
    const dto = (await super.transform(value, metadata)) as Record<string, unknown>;
    withoutNulls(dto);
    for (const [f, v] of raw) dto[f] = v;
    return dto;
  }
}

/**
 * Request bodies and query strings are checked against their DTO classes; a bad one is a
 * 400 problem document that names every field at fault (`fields`).
 */
export const apiValidation = new ApiValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
  exceptionFactory: (errors) => invalid(flatten(errors)),
});

/**
 * A whole number in a query string, written in decimal digits only. `@Type(() => Number)` read
 * "0x10", "1e3" and " 5" as numbers, and left "abc" as NaN, which failed every range check too
 * (three problems for one wrong word). Ranges are checked where GraphQL's are, for one code over both.
 * At most 16 digits, leading zeros counted: every safe integer fits, and a longer string is refused
 * before Number() could round it.
 */
export function QueryInteger(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value)),
    ValidateBy({
      name: 'queryInteger',
      validator: {
        validate: (v: unknown) => Number.isSafeInteger(v),
        defaultMessage: (args) => `${args?.property} must be a whole number, in at most 16 decimal digits`,
      },
    }),
  );
}
