import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { AppError } from '../errors/app-error';
import { createValidationPipe } from './validation.pipe';

class Query {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsIn(['name', '-name'])
  sort?: string;
}

class Defaults {
  @IsOptional()
  @IsInt()
  limit: number = 20;
}

class Required {
  @IsString()
  name: string;
}

describe('the global validation pipe', () => {
  const sut = createValidationPipe();
  const transform = (value: object) => sut.transform(value, { type: 'query', metatype: Query });

  it('converts and passes valid input', async () => {
    await expect(transform({ limit: '5', sort: '-name' })).resolves.toEqual(Object.assign(new Query(), { limit: 5, sort: '-name' }));
  });

  it('reports every failing field with its constraint and arguments', async () => {
    const error: AppError = await transform({ limit: '500', sort: 'size', extra: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual([
      { field: 'extra', constraint: 'whitelistValidation', args: [] },
      { field: 'limit', constraint: 'max', args: [100] },
      { field: 'sort', constraint: 'isIn', args: [['name', '-name']] },
    ]);
  });

  it('answers every empty query with a new instance holding the DTO defaults', async () => {
    const first = await sut.transform({}, { type: 'query', metatype: Defaults });
    const second = await sut.transform(Object.create(null), { type: 'query', metatype: Defaults });
    expect(first).toEqual(Object.assign(new Defaults(), { limit: 20 }));
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second).toBeInstanceOf(Defaults);
  });

  it('keeps refusing an empty query whose DTO needs a field, every time', async () => {
    for (let i = 0; i < 2; i++) {
      const error: AppError = await sut.transform({}, { type: 'query', metatype: Required }).catch((e) => e);
      expect(error.code).toBe('VALIDATION_ERROR');
    }
  });
});
