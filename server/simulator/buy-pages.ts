import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { PRODUCT_TYPE_SEEDS, type ProductModelSeed } from '#shared/catalog/index.ts';
import { isSupportedCountry, getCountryStore } from '#shared/upstream/index.ts';
import { sendError } from './control-routes.ts';

// Apple's buy pages (`/{country}/shop/buy-iphone/iphone-18-pro` and the iPad, Mac and Watch
// equivalents), built from the models the simulator stocks, in the two shapes public checkers
// read: the inline `window.PRODUCT_SELECTION_BOOTSTRAP` product data and the
// `<script type="application/json" id="metrics">` JSON. Names carry U+00A0 between words as
// Apple's do. `POST /_sim/buy-page` lists or unlists a model at run time, so a catalog sync
// can be tested adding a launch and retiring a model.

/** Which of the two product shapes a buy page carries. */
export const BUY_PAGE_SHAPES = ['both', 'selection', 'metrics'] as const;
/** A buy page shape setting. */
export type BuyPageShape = (typeof BUY_PAGE_SHAPES)[number];

const NBSP = '\u00a0';
const PAGE_PATH = /^\/shop\/buy-[a-z]+\/[a-z0-9-]+$/;
const CAPACITY = /^\d+(?:GB|TB)$/;

/** Body of POST /_sim/buy-page. */
export const buyPageChangeSchema = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code'),
  part_number: z.string().trim().toUpperCase().min(1, 'must not be empty').max(32),
  listed: z.boolean(),
  /** The page to list it on; defaults to its product type's buy page. */
  page: z.string().regex(PAGE_PATH, 'must be a path like /shop/buy-iphone/iphone-17').optional(),
  shape: z.enum(BUY_PAGE_SHAPES).optional(),
});

type PageProduct = { model: ProductModelSeed; productName: string | undefined };

function getTypePage(productId: string): string | undefined {
  return PRODUCT_TYPE_SEEDS.find((type) => type.product_id === productId)?.buy_page ?? undefined;
}

function getTypeName(productId: string): string | undefined {
  return PRODUCT_TYPE_SEEDS.find((type) => type.product_id === productId)?.product_name;
}

/** A dimension key the way Apple writes them: lower case, no spaces ("mistblue", "256gb"). */
function toDimensionKey(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** Capacity and colour of an iPhone-style name ("iPhone 18 Pro 256GB Black"), when it has them. */
function splitDimensions(
  name: string,
  productName: string | undefined,
): { capacity: string; color: string } | undefined {
  if (productName === undefined || !name.startsWith(`${productName} `)) return undefined;
  const [capacity, ...color] = name.slice(productName.length + 1).split(' ');
  if (capacity === undefined || !CAPACITY.test(capacity) || color.length === 0) return undefined;
  return { capacity, color: color.join(' ') };
}

function escapeScriptJson(value: unknown): string {
  // A "</script>" inside the data would end the script element early.
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

/** The HTML of one buy page listing `products` in the given shapes. */
export function renderBuyPage(
  title: string,
  products: readonly PageProduct[],
  shape: BuyPageShape,
): string {
  const selectionProducts: Record<string, unknown>[] = [];
  const colors: Record<string, { value: string }> = {};
  const capacities: Record<string, { value: string }> = {};
  const metricsProducts: Record<string, unknown>[] = [];
  for (const { model, productName } of products) {
    const base = model.part_number.slice(0, 5);
    const dimensions = splitDimensions(model.display_name, productName);
    const entry: Record<string, unknown> = {
      partNumber: model.part_number,
      basePartNumber: base,
      familyType: model.product_id,
      fullPrice: model.part_number.toLowerCase().replace('/', '_'),
    };
    if (dimensions !== undefined) {
      const capacityKey = toDimensionKey(dimensions.capacity);
      const colorKey = toDimensionKey(dimensions.color);
      entry.dimensionCapacity = capacityKey;
      entry.dimensionColor = colorKey;
      capacities[capacityKey] = { value: dimensions.capacity };
      colors[colorKey] = { value: dimensions.color.replaceAll(' ', NBSP) };
    }
    selectionProducts.push(entry);
    metricsProducts.push({
      sku: model.part_number,
      partNumber: model.part_number,
      category: model.product_id.replace(/\d.*$/, ''),
      name: model.display_name.replaceAll(' ', NBSP),
    });
  }
  const scripts: string[] = [];
  if (shape !== 'metrics') {
    const bootstrap = {
      productSelectionData: {
        products: selectionProducts,
        displayValues: { dimensionColor: colors, dimensionCapacity: capacities },
        sections: [],
      },
    };
    scripts.push(
      `<script>window.PRODUCT_SELECTION_BOOTSTRAP = ${escapeScriptJson(bootstrap)};</script>`,
    );
  }
  if (shape !== 'selection') {
    const metrics = { data: { products: metricsProducts } };
    scripts.push(
      `<script type="application/json" id="metrics">${escapeScriptJson(metrics)}</script>`,
    );
  }
  return `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>${title}</title></head><body><main id="main">${title}</main>${scripts.join('')}</body></html>`;
}

/** Registers the buy pages and POST /_sim/buy-page on the simulator. */
export function registerBuyPageRoutes(
  app: FastifyInstance,
  options: { models: readonly ProductModelSeed[] },
): void {
  const modelsByKey = new Map<string, ProductModelSeed>();
  for (const model of options.models) {
    modelsByKey.set(`${model.country_code}|${model.part_number}`, model);
  }
  // Run-time listing: key -> page it is listed on, or null when taken off its page.
  const overrides = new Map<string, string | null>();
  let shape: BuyPageShape = 'both';
  const countryByPath = new Map<string, string>();
  for (const model of options.models) {
    if (isSupportedCountry(model.country_code)) {
      countryByPath.set(getCountryStore(model.country_code).path, model.country_code);
    }
  }

  const listPage = (countryCode: string, page: string): PageProduct[] => {
    const listed: PageProduct[] = [];
    for (const [key, model] of modelsByKey) {
      if (model.country_code !== countryCode) continue;
      const override = overrides.get(key);
      const isSold = model.retired_on === undefined || model.retired_on === null;
      const onPage =
        override === undefined
          ? isSold && getTypePage(model.product_id) === page
          : override === page;
      if (onPage) listed.push({ model, productName: getTypeName(model.product_id) });
    }
    return listed.sort((a, b) => a.model.part_number.localeCompare(b.model.part_number));
  };

  const answerPage = (
    countryPath: string,
    line: string,
    slug: string,
    reply: FastifyReply,
  ): FastifyReply => {
    const countryCode = countryByPath.get(countryPath);
    const page = `/shop/buy-${line}/${slug}`;
    const products = countryCode === undefined ? [] : listPage(countryCode, page);
    if (products.length === 0) {
      return reply
        .code(404)
        .type('text/html; charset=UTF-8')
        .send('<!DOCTYPE html><title>Page Not Found</title>');
    }
    const title = `Buy ${slug.replaceAll('-', ' ')}`;
    return reply
      .code(200)
      .type('text/html; charset=UTF-8')
      .header('cache-control', 'no-cache')
      .send(renderBuyPage(title, products, shape));
  };

  type PageParams = { country?: string; lang?: string; line: string; slug: string };
  app.get<{ Params: PageParams }>('/shop/buy-:line/:slug', async (request, reply) =>
    answerPage('', request.params.line, request.params.slug, reply),
  );
  app.get<{ Params: PageParams }>('/:country/shop/buy-:line/:slug', async (request, reply) =>
    answerPage(request.params.country ?? '', request.params.line, request.params.slug, reply),
  );
  app.get<{ Params: PageParams }>('/:country/:lang/shop/buy-:line/:slug', async (request, reply) =>
    answerPage(
      `${request.params.country ?? ''}/${request.params.lang ?? ''}`,
      request.params.line,
      request.params.slug,
      reply,
    ),
  );

  app.post('/_sim/buy-page', async (request, reply) => {
    const parsed = buyPageChangeSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue !== undefined && issue.path.length > 0 ? issue.path.join('.') : 'body';
      return sendError(
        reply,
        400,
        'invalid_input',
        `${field}: ${issue?.message ?? 'invalid input'}`,
        field,
      );
    }
    const { country, part_number: partNumber, listed, page } = parsed.data;
    if (parsed.data.shape !== undefined) shape = parsed.data.shape;
    const key = `${country}|${partNumber}`;
    const model = modelsByKey.get(key);
    if (model === undefined) {
      // Only stocked parts: the pickup endpoint would refuse a part it does not sell.
      const message = `Part ${partNumber} is not stocked in ${country}; start the simulator with that model`;
      return sendError(reply, 404, 'not_found', message, 'part_number');
    }
    const target = page ?? getTypePage(model.product_id);
    if (listed && target === undefined) {
      return sendError(
        reply,
        400,
        'invalid_input',
        `page: ${model.product_id} has no buy page; name one`,
        'page',
      );
    }
    overrides.set(key, listed ? (target ?? null) : null);
    return { country, part_number: partNumber, listed, page: listed ? target : null, shape };
  });
}
