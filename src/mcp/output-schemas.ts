import * as z from 'zod/v4';

/**
 * The tools' output schemas: a tool's structured content is its route's success body (docs/using-the-api.md,
 * Envelopes), `{ data }` or `{ data, meta }` for a page, with the shapes of the route's DTOs
 * (src/industries/dto, src/startups/dto, src/me/dto). test/mcp/mcp-endpoint.e2e-spec.ts compares each tool's
 * result with its route's answer.
 */
const id = z.number().int().min(1);

const industry = z.object({ id, name: z.string() });

const startup = z.object({
  id,
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  website: z.string().nullable(),
  foundedYear: z.number().int(),
  city: z.string(),
  industry,
});

const pageMeta = z.object({ total: z.number().int().min(0), limit: z.number().int().min(1), offset: z.number().int().min(0) });

export const OUTPUT_SCHEMAS = {
  list_industries: z.object({ data: z.array(industry) }),
  search_startups: z.object({ data: z.array(startup), meta: pageMeta }),
  get_startup: z.object({ data: startup }),
  get_me: z.object({ data: z.object({ id, name: z.string(), email: z.string() }) }),
};
