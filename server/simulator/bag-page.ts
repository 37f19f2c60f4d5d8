import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderErrorPage } from './faults.ts';
import type { SimCatalog } from './sim-catalog.ts';

// The shopping bag page (`/{country path}shop/bag`), which the product's session warm-up
// visits before its first pickup request (shared/upstream/session-warm-up.ts). At Apple it is
// a dynamic page that sets the store session's cookies (`dssid2` among them), where a buy
// page, cached by the CDN, sets only `geo` (ENCHIGO/apple-pickup-watcher, 2026-09-13). The
// simulator sets one session cookie per visit and keeps no sessions: its block follows the
// caller's address only (address-budget.ts).
//
// A visit neither counts toward the address's budget nor is refused while the address is
// blocked. The only measured counts are of pickup requests (ENCHIGO: about 30, then 541;
// jhdavis789: about 15), ENCHIGO writes that Apple's edge limits the pickup endpoint by count,
// and none of the reports in ../shared/reference/apple has a page load trip or share the
// block. Were that wrong, the warm-up would cost one request per address, country and hour.

/** The session cookie the bag page sets; Apple's store session carries one of this name. */
export const SESSION_COOKIE_NAME = 'dssid2';

const BAG_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Bag</title></head>
<body><main><h1>Your bag is empty.</h1></main></body></html>
`;

/** Registers `GET /{country path}shop/bag` for every country the simulator serves. */
export function registerBagPageRoutes(
  app: FastifyInstance,
  options: { catalog: Pick<SimCatalog, 'findCountryByPath'> },
): void {
  const answerBag = (countryPath: string, reply: FastifyReply): FastifyReply => {
    if (options.catalog.findCountryByPath(countryPath) === undefined) {
      return reply.code(404).type('text/html; charset=UTF-8').send(renderErrorPage());
    }
    return reply
      .code(200)
      .type('text/html; charset=UTF-8')
      .header('cache-control', 'no-cache, no-store')
      .header('set-cookie', `${SESSION_COOKIE_NAME}=${randomUUID()}; Path=/; HttpOnly`)
      .send(BAG_PAGE);
  };

  type BagParams = { country?: string; lang?: string };
  app.get('/shop/bag', async (_request, reply) => answerBag('', reply));
  app.get<{ Params: BagParams }>('/:country/shop/bag', async (request, reply) =>
    answerBag(request.params.country ?? '', reply),
  );
  app.get<{ Params: BagParams }>('/:country/:lang/shop/bag', async (request, reply) =>
    answerBag(`${request.params.country ?? ''}/${request.params.lang ?? ''}`, reply),
  );
}
