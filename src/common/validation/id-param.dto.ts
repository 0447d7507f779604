import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { WholeNumber } from './whole-number.decorator';

/** Ids are 32-bit integers in both engines; a larger number could only fail inside the database. */
export const MAX_ID = 2_147_483_647;

/** A numeric `:id` path parameter: anything else is VALIDATION_ERROR on field `id`, never a 500. */
export class IdParamDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_ID, example: 1, description: 'The resource id.' })
  @WholeNumber()
  // class-validator runs the lowest decorator first: "abc" is reported as not a whole number, not as out of range.
  @Min(1)
  @Max(MAX_ID)
  @IsInt()
  id: number;
}
