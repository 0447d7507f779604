import * as z from 'zod/v4';
import { IdParamDto } from '../common/validation/id-param.dto';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { ListStartupsQueryDto } from '../startups/dto/list-startups.query.dto';
import { inputSchemaOf } from './input-schema';

describe('inputSchemaOf', () => {
  it('describes a route DTO\'s documented fields, limits and defaults, and no other field', () => {
    const schema = z.toJSONSchema(inputSchemaOf(ListStartupsQueryDto), { io: 'input' });
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Page size.' },
        offset: { type: 'integer', minimum: 0, maximum: 2_147_483_647, default: 0 },
        industryId: { type: 'integer', minimum: 1 },
        q: { type: 'string', maxLength: 200 },
        sort: { type: 'string', enum: ['name', '-name', 'foundedYear', '-foundedYear'], default: 'name' },
      },
    });
    expect(schema).not.toHaveProperty('required');
    expect(z.toJSONSchema(inputSchemaOf(IdParamDto), { io: 'input' })).toMatchObject({ required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } });
    expect(z.toJSONSchema(inputSchemaOf(NoQueryDto), { io: 'input' })).toMatchObject({ properties: {}, additionalProperties: false });
  });

  it('lets every object through to the route\'s own validation, unknown fields included (they are refused there, not dropped)', () => {
    const sut = inputSchemaOf(ListStartupsQueryDto);
    expect(sut.parse({ limit: 500, unknown: 1 })).toEqual({ limit: 500, unknown: 1 });
  });
});
