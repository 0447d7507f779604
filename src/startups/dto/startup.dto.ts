import { ApiProperty } from '@nestjs/swagger';
import { IndustryDto } from '../../industries/dto/industry.dto';

/** A startup as the public API shows it. */
export class StartupDto {
  @ApiProperty({ type: 'integer', example: 42 })
  id: number;

  @ApiProperty({ example: 'Poyraz Pay', maxLength: 200 })
  name: string;

  @ApiProperty({ example: 'poyraz-pay', maxLength: 220, description: 'Unique, URL-safe.' })
  slug: string;

  @ApiProperty({ example: 'İstanbul merkezli Poyraz Pay, küçük işletmeler için anında ödeme altyapısı sunuyor.' })
  description: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'https://poyrazpay.com.tr' })
  website: string | null;

  @ApiProperty({ type: 'integer', example: 2019 })
  foundedYear: number;

  @ApiProperty({ example: 'İstanbul' })
  city: string;

  @ApiProperty({ type: IndustryDto })
  industry: IndustryDto;
}
