import * as z from 'zod/v4';

const SWAGGER_PROPERTIES = 'swagger/apiModelPropertiesArray';
const SWAGGER_PROPERTY = 'swagger/apiModelProperties';
/** The JSON Schema keywords of a property's OpenAPI declaration that say what a value may be. */
const KEYWORDS = ['type', 'minimum', 'maximum', 'maxLength', 'enum', 'default', 'description'] as const;

/**
 * A tool's input schema (MCP, "Tools": a JSON Schema object) made from the OpenAPI declarations of the
 * API route's query or path DTO (`@ApiProperty`), so that the tool documents exactly the fields, limits and
 * words the reference documents for its route.
 *
 * The schema only describes: the zod object the SDK parses with admits any object, and the tool validates
 * the arguments with the route's own DTO through the API's validation pipe (src/mcp/mcp-tools.ts), so a
 * bad argument is the same VALIDATION_ERROR, with the same details, as a bad query parameter, and an
 * unknown one is refused as the API refuses it rather than dropped.
 */
export function inputSchemaOf(dto: new () => object): z.ZodType {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  const names = (Reflect.getMetadata(SWAGGER_PROPERTIES, dto.prototype) as string[] | undefined) ?? [];
  for (const name of names.map((n) => n.replace(/^:/, ''))) {
    const declared = Reflect.getMetadata(SWAGGER_PROPERTY, dto.prototype, name) as Record<string, unknown>;
    const schema: Record<string, unknown> = {};
    for (const keyword of KEYWORDS) if (declared[keyword] !== undefined) schema[keyword] = declared[keyword];
    // A property declared without a type has its TypeScript type, a constructor (`String`), as its OpenAPI type.
    const type = schema.type ?? Reflect.getMetadata('design:type', dto.prototype, name);
    if (typeof type === 'function') schema.type = type === Number ? 'number' : type === Boolean ? 'boolean' : 'string';
    properties[name] = schema;
    if (declared.required !== false) required.push(name);
  }
  const meta: Record<string, unknown> = { properties, additionalProperties: false };
  if (required.length > 0) meta.required = required;
  return z.looseObject({}).meta(meta);
}
