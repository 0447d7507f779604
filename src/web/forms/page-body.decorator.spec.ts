import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import fc from 'fast-check';
import { AppError } from '../../common/errors/app-error';
import { PageFormPipe, REPEATED_AS_MISSING } from './page-body.decorator';
import { PageFormDto } from './page-form.dto';

class TestForm extends PageFormDto {
  @IsOptional()
  @MaxLength(320)
  @IsString()
  email?: string;

  @MaxLength(100)
  @IsString()
  name: string;

  @IsOptional()
  @IsIn(['allow', 'deny'])
  decision?: string;
}

const FIELDS = ['csrf_token', 'email', 'name', 'decision'];

/** A urlencoded form as the body parser gives it: an object without a prototype. */
function posted(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, fields);
}

describe('PageFormPipe', () => {
  const sut = new PageFormPipe(TestForm);

  async function refusal(value: unknown): Promise<AppError> {
    const error: unknown = await sut.transform(value).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }

  it('gives the handler an instance of the form, with its fields as strings', async () => {
    const form = await sut.transform(posted({ csrf_token: 't', name: 'Ayşe', email: 'ayse@example.com', decision: 'allow' }));
    expect(form).toBeInstanceOf(TestForm);
    expect(form).toEqual(Object.assign(new TestForm(), { csrf_token: 't', name: 'Ayşe', email: 'ayse@example.com', decision: 'allow' }));
  });

  it.each([
    ['an array where a string is expected (a repeated field)', { name: ['a', 'b'] }],
    ['a huge string', { name: 'x'.repeat(101) }],
    ['a missing required field', {}],
    ['a value outside its list', { name: 'a', decision: 'maybe' }],
    ['an unknown field', { name: 'a', is_admin: 'yes' }],
    ['a nested object (a[b]=c)', { name: { b: 'c' } }],
  ])('refuses %s as a VALIDATION_ERROR, which the page format renders', async (_case, fields) => {
    const error = await refusal(posted(fields));
    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['an own __proto__ field', posted({ name: 'a', ['__proto__']: 'x' })],
    ['a JSON-made __proto__ object', JSON.parse('{"name":"a","__proto__":{"isAdmin":true}}') as unknown],
    ['constructor and prototype fields', posted({ name: 'a', constructor: 'x', prototype: 'y' })],
  ])('refuses %s without touching any prototype', async (_case, value) => {
    const error = await refusal(value);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect((TestForm.prototype as unknown as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('answers whatever is posted with the form or a VALIDATION_ERROR, never another error', async () => {
    const key = fc.oneof(fc.constantFrom(...FIELDS, '__proto__', 'constructor', 'toString', 'hasOwnProperty'), fc.string({ maxLength: 12 }));
    const value = fc.oneof(fc.string({ maxLength: 400 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.anything(), fc.constant('x'.repeat(5000)));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, value, { maxKeys: 6 }), async (fields) => {
        const outcome: unknown = await sut.transform(posted(fields)).then(
          (form) => form,
          (e: unknown) => e,
        );
        if (outcome instanceof AppError) {
          expect(outcome.code).toBe('VALIDATION_ERROR');
          return;
        }
        expect(outcome).toBeInstanceOf(TestForm);
        for (const [name, field] of Object.entries(outcome as object)) {
          if (field === undefined) continue;
          expect(FIELDS).toContain(name);
          expect(typeof field).toBe('string');
          expect((field as string).length).toBeLessThanOrEqual(320);
        }
        expect(typeof (outcome as TestForm).name).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  describe('with a page\'s own answer', () => {
    class Refused extends Error {}

    it('throws the error the page gives for the issues, or the page error when it gives none', async () => {
      const sut = new PageFormPipe(TestForm, (issues) => (issues.some((issue) => issue.constraint === 'isString') ? new Refused() : undefined));
      await expect(sut.transform(posted({ name: ['a', 'b'] }))).rejects.toBeInstanceOf(Refused);
      await expect(sut.transform(posted({ name: 'x'.repeat(101) }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(sut.transform(posted({ name: 'a', ['__proto__']: 'x' }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('reads a repeated field as missing with REPEATED_AS_MISSING, so the page says what is missing', async () => {
      const sut = new PageFormPipe(TestForm, REPEATED_AS_MISSING);
      await expect(sut.transform(posted({ name: 'a', email: ['x@example.com', 'y@example.com'] }))).resolves.toEqual(Object.assign(new TestForm(), { name: 'a' }));
      // Without the field, the form still has to pass: a required one sent twice is refused.
      await expect(sut.transform(posted({ name: ['a', 'b'] }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      // Anything else than a repetition is refused as before.
      await expect(sut.transform(posted({ name: 'a', email: 'x'.repeat(321) }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(sut.transform(posted({ name: 'a', email: [{}] }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });
  });
});
