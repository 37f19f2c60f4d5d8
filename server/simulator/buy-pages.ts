import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { PRODUCT_TYPE_SEEDS, type ProductModelSeed } from '#shared/catalog/index.ts';
import { isSupportedCountry, listCountryPaths } from '#shared/upstream/index.ts';
import { sendError } from './control-routes.ts';
import {
  BUY_PAGE_LAYOUTS,
  BUY_PAGE_SHAPES,
  renderBuyPage,
  renderOverviewPage,
  type BuyPageLayout,
  type BuyPageShape,
  type PageProduct,
} from './buy-page-render.ts';

// Apple's buy pages (`/{country}/shop/buy-iphone/iphone-18-pro` and the iPad, Mac and Watch
// equivalents), built from the models the simulator stocks and written as Apple writes them
// (buy-page-render.ts). A page the catalog marks retired (`buy_page_retired`, the iPhone 17 Pro
// page since 2026-09-11) answers 301 to its line's overview page, which carries no product
// data, as Apple's does (reference README, "A retired buy page redirects"). `POST
// /_sim/buy-page` lists or unlists a model at run time and `POST /_sim/buy-page-settings`
// sets the shape and layout and retires a page, so a catalog sync can be tested adding a
// launch, retiring a model and retiring a page.

export { BUY_PAGE_LAYOUTS, BUY_PAGE_SHAPES, renderBuyPage } from './buy-page-render.ts';
export type { BuyPageLayout, BuyPageShape } from './buy-page-render.ts';

const PAGE_PATH = /^\/shop\/buy-[a-z]+\/[a-z0-9-]+$/;
// The overview pages a retired buy page of each line redirects to.
const OVERVIEW_LINES = ['iphone', 'ipad', 'mac', 'watch'] as const;

const pagePathSchema = z
  .string()
  .regex(PAGE_PATH, 'must be a path like /shop/buy-iphone/iphone-17');

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
  page: pagePathSchema.optional(),
  shape: z.enum(BUY_PAGE_SHAPES).optional(),
});

/** Body of POST /_sim/buy-page-settings: any of the settings, a page with `retired`. */
export const buyPageSettingsSchema = z
  .object({
    shape: z.enum(BUY_PAGE_SHAPES).optional(),
    layout: z.enum(BUY_PAGE_LAYOUTS).optional(),
    page: pagePathSchema.optional(),
    retired: z.boolean().optional(),
  })
  .refine((body) => (body.page === undefined) === (body.retired === undefined), {
    message: 'page and retired go together',
    path: ['retired'],
  });

function getTypePage(productId: string): string | undefined {
  return PRODUCT_TYPE_SEEDS.find((type) => type.product_id === productId)?.buy_page ?? undefined;
}

function getTypeName(productId: string): string | undefined {
  return PRODUCT_TYPE_SEEDS.find((type) => type.product_id === productId)?.product_name;
}

/** Pages the catalog marks retired: they redirect from the start. */
function listCatalogRetiredPages(): string[] {
  return PRODUCT_TYPE_SEEDS.flatMap((type) =>
    type.buy_page !== undefined &&
    type.buy_page !== null &&
    (type.buy_page_retired_on ?? null) !== null
      ? [type.buy_page]
      : [],
  );
}

function sendBodyError(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const issue = error.issues[0];
  const field = issue !== undefined && issue.path.length > 0 ? issue.path.join('.') : 'body';
  return sendError(
    reply,
    400,
    'invalid_input',
    `${field}: ${issue?.message ?? 'invalid input'}`,
    field,
  );
}

/** Registers the buy pages, the overview pages and their control routes on the simulator. */
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
  const retiredPages = new Set(listCatalogRetiredPages());
  let shape: BuyPageShape = 'both';
  let layout: BuyPageLayout = 'by-page';
  const countryByPath = new Map<string, string>();
  for (const model of options.models) {
    if (isSupportedCountry(model.country_code)) {
      for (const path of listCountryPaths(model.country_code)) {
        countryByPath.set(path, model.country_code);
      }
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

  const answerPage = (countryPath: string, line: string, slug: string, reply: FastifyReply) => {
    const countryCode = countryByPath.get(countryPath);
    const page = `/shop/buy-${line}/${slug}`;
    const prefix = countryPath === '' ? '' : `/${countryPath}`;
    if (countryCode !== undefined && retiredPages.has(page)) {
      const overview = (OVERVIEW_LINES as readonly string[]).includes(line) ? line : 'iphone';
      return reply.code(301).header('location', `${prefix}/${overview}/`).send();
    }
    const products = countryCode === undefined ? [] : listPage(countryCode, page);
    if (products.length === 0) {
      return reply
        .code(404)
        .type('text/html; charset=UTF-8')
        .send('<!DOCTYPE html><title>Page Not Found</title>');
    }
    return reply
      .code(200)
      .type('text/html; charset=UTF-8')
      .header('cache-control', 'no-cache')
      .send(renderBuyPage({ line, slug, products, shape, layout }));
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
  for (const line of OVERVIEW_LINES) {
    const answerOverview = async (_request: unknown, reply: FastifyReply) =>
      reply.code(200).type('text/html; charset=UTF-8').send(renderOverviewPage(line));
    app.get(`/${line}/`, answerOverview);
    app.get(`/:country/${line}/`, answerOverview);
    app.get(`/:country/:lang/${line}/`, answerOverview);
  }

  app.post('/_sim/buy-page', async (request, reply) => {
    const parsed = buyPageChangeSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendBodyError(reply, parsed.error);
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

  app.post('/_sim/buy-page-settings', async (request, reply) => {
    const parsed = buyPageSettingsSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendBodyError(reply, parsed.error);
    const body = parsed.data;
    if (body.shape !== undefined) shape = body.shape;
    if (body.layout !== undefined) layout = body.layout;
    if (body.page !== undefined && body.retired === true) retiredPages.add(body.page);
    if (body.page !== undefined && body.retired === false) retiredPages.delete(body.page);
    return { shape, layout, retired_pages: [...retiredPages].sort() };
  });
}
