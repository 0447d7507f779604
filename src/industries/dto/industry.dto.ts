import { ApiProperty } from '@nestjs/swagger';

/** An industry as the public API shows it. */
export class IndustryDto {
  @ApiProperty({ type: 'integer', example: 9 })
  id: number;

  @ApiProperty({ example: 'Fintech', maxLength: 100 })
  name: string;
}
