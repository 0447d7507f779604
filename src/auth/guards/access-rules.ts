import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACCESS_KEY, AccessRule, DEFAULT_ACCESS } from '../decorators/public.decorator';

const NOT_HTTP: AccessRule = { kind: 'public' };

/**
 * The access rule a route declares (`@Public()`, `@OptionalApiKey()`, `@Scopes()`, or none: a Bearer
 * token), read through the Reflector. Every guard of the pipeline asks; route metadata never changes
 * after start, so it is reflected once per handler, not per request and guard. Contexts other than
 * HTTP have no credentials to check.
 */
@Injectable()
export class AccessRules {
  private readonly rules = new WeakMap<object, AccessRule>();

  constructor(private readonly reflector: Reflector) {}

  of(context: ExecutionContext): AccessRule {
    if (context.getType() !== 'http') return NOT_HTTP;
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (rule === undefined) {
      rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_KEY, [handler, context.getClass()]) ?? DEFAULT_ACCESS;
      this.rules.set(handler, rule);
    }
    return rule;
  }
}
