import { withGst, type PrintProduct } from '@finishline/shared/pure';
import type { AppContext } from '../context';
import type { Db } from '../db/db';

/** app_settings key holding the event ids for which prints and collages are hidden. */
export const DISABLE_PRINTS_SETTING = 'DISABLEPRINTS';

export async function disabledPrintEventIds(db: Db): Promise<number[]> {
  const rows = await db.query<{ value: unknown }>('select value from app_settings where key = $1', [DISABLE_PRINTS_SETTING]);
  return disabledIdsOf(rows[0]?.value);
}

/** The event ids in a DISABLEPRINTS value as stored. */
function disabledIdsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number).filter((n) => Number.isInteger(n)) : [];
}

/**
 * Puts the event on DISABLEPRINTS or takes it off (the organiser's "Prints disabled" switch). One
 * statement, so two switches flipped at once on two events cannot lose either change.
 */
export async function setPrintsDisabled(db: Db, eventId: number, disabled: boolean): Promise<void> {
  await db.query(
    `insert into app_settings (key, value) values ($1, case when $3 then jsonb_build_array($2::int) else '[]'::jsonb end)
     on conflict (key) do update set updated_at = now(), value = (
       select coalesce(jsonb_agg(distinct x order by x), '[]'::jsonb)
         from (select e::int as x from jsonb_array_elements_text(app_settings.value) e where e::int <> $2
               union select $2 where $3) ids)`,
    [DISABLE_PRINTS_SETTING, eventId, disabled],
  );
}

/**
 * The print catalogue at the event's prices (an organiser may set the event's own price per product;
 * otherwise the catalogue's). Only the price before GST is stored: the price with GST is the shared
 * pricing rule's (the same `withGst` the bill charges), so the modal can never show another amount.
 */
export async function printProducts(ctx: AppContext, eventId: number | null = null): Promise<PrintProduct[]> {
  const rows = await ctx.db.query<PrintProductRow>(`${printProductRowsSql('$1')} order by pp.sort, pp.id`, [eventId]);
  return rows.map((r) => toPrintProduct(ctx, r));
}

export interface PrintProductRow {
  [column: string]: unknown;
  id: number;
  name: string;
  image_key: string;
  price: number;
  sort: number;
}

/** The catalogue's rows at the event's prices (eventParam: the event id's placeholder), unordered: order by sort, id. */
export const printProductRowsSql = (eventParam: string): string =>
  `select pp.id, pp.name, pp.image_key, coalesce(ep.price, pp.price) as price, pp.sort
     from print_products pp left join event_print_prices ep on ep.print_product_id = pp.id and ep.event_id = ${eventParam}`;

function toPrintProduct(ctx: AppContext, r: PrintProductRow): PrintProduct {
  const image = ctx.storage.publicUrl(r.image_key);
  return { id: r.id, prod_id: r.id, name: r.name, image, price: r.price, pricewthgst: withGst(r.price), s3: image };
}

/** What a search result of the event offers in prints: nothing where the event's prints are disabled. */
export async function printOfferOf(ctx: AppContext, eventId: number): Promise<{ printsDisabled: boolean; printProductInfo: PrintProduct[] }> {
  const printsDisabled = (await disabledPrintEventIds(ctx.db)).includes(eventId);
  return { printsDisabled, printProductInfo: printsDisabled ? [] : await printProducts(ctx, eventId) };
}

/** The same offer from rows read elsewhere (the BIB search and the cart bill read them in their one statement). */
export function printOfferFrom(
  ctx: AppContext,
  eventId: number,
  disabledPrints: unknown,
  rows: PrintProductRow[],
): { printsDisabled: boolean; printProductInfo: PrintProduct[] } {
  const printsDisabled = disabledIdsOf(disabledPrints).includes(eventId);
  return { printsDisabled, printProductInfo: printsDisabled ? [] : rows.map((r) => toPrintProduct(ctx, r)) };
}

/** SQL: the DISABLEPRINTS value as stored (keyParam: the placeholder of DISABLE_PRINTS_SETTING); read it with printOfferFrom. */
export const disabledPrintsSql = (keyParam: string): string => `(select value from app_settings where key = ${keyParam})`;

/** SQL: the print catalogue at the event's prices as one JSON array, ordered (read it with printOfferFrom). */
export const printProductsJsonSql = (eventParam: string): string =>
  `(select coalesce(json_agg(x order by x.sort, x.id), '[]') from (${printProductRowsSql(eventParam)}) x)`;
