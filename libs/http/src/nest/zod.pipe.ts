import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { validate, type ValidateOptions } from '../validation.js';

/** `@Body(new ZodPipe(schema))` / `@Query(new ZodPipe(schema))`: validation at the edge, one envelope for failures. */
export class ZodPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.output<Schema>> {
  constructor(
    private readonly schema: Schema,
    private readonly options: ValidateOptions = {},
  ) {}

  transform(value: unknown): z.output<Schema> {
    return validate(this.schema, value ?? {}, this.options);
  }
}
