import { ApiProperty } from '@nestjs/swagger';

/** The signed-in user, as the `profile` scope shows them. */
export class MeDto {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({ example: 'Ayşe Yılmaz' })
  name: string;

  @ApiProperty({ example: 'ayse@example.com' })
  email: string;
}
