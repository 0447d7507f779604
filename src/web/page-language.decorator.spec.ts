import { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { IsOptional, IsString } from 'class-validator';
import { PageBody, PageFormPipe } from './forms/page-body.decorator';
import { PageFormDto } from './forms/page-form.dto';
import { PageLanguage } from './page-language.decorator';

class NameForm extends PageFormDto {
  @IsOptional()
  @IsString()
  name?: string;
}

class Pages {
  handler(@PageLanguage() _language: unknown, @PageBody(NameForm) _form: NameForm): void {}
}

interface RouteArgument {
  index: number;
  factory: (data: unknown, context: ExecutionContext) => unknown;
  pipes: unknown[];
}

/** The route arguments Nest reads for Pages.handler, by parameter index. */
function argumentsOf(): RouteArgument[] {
  const stored = Reflect.getMetadata(ROUTE_ARGS_METADATA, Pages, 'handler') as Record<string, RouteArgument>;
  return Object.values(stored).sort((a, b) => a.index - b.index);
}

function contextOf(request: object): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

describe('the page parameter decorators', () => {
  it('@PageLanguage() gives the request\'s language by the one rule, Turkish by default', () => {
    const [language] = argumentsOf();
    expect(language.factory(undefined, contextOf({ headers: { 'accept-language': 'en-GB,tr;q=0.5' } }))).toBe('en');
    expect(language.factory(undefined, contextOf({ headers: { 'accept-language': 'de' } }))).toBe('tr');
    expect(language.factory(undefined, contextOf({ headers: {} }))).toBe('tr');
  });

  it('@PageBody(Form) reads the urlencoded form only, and validates it as Form', async () => {
    const [, form] = argumentsOf();
    const posted = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { name: 'Ada' } };
    expect(form.factory(undefined, contextOf(posted))).toEqual({ name: 'Ada' });
    expect(form.factory(undefined, contextOf({ headers: { 'content-type': 'application/json' }, body: { name: 'Ada' } }))).toEqual({});
    expect(form.pipes).toHaveLength(1);
    const pipe = form.pipes[0] as PageFormPipe<NameForm>;
    expect(pipe).toBeInstanceOf(PageFormPipe);
    await expect(pipe.transform({ name: 'Ada' })).resolves.toBeInstanceOf(NameForm);
    await expect(pipe.transform({ name: ['Ada', 'Grace'] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
