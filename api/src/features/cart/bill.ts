import { computeBill, printsDeliverableTo, PricingError, UNLABELED_BIB, type Bill, type CartLine, type CartRequest } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../http/envelope';
import { DISABLE_PRINTS_SETTING, disabledPrintsSql, printOfferFrom, printProductsJsonSql, type PrintProductRow } from '../../rules/prints';
import { READY_PHOTO_SQL } from '../../rules/photos';
import { assertBibsReleasedBy, assertUnlabeledReleased, bibReleased, normaliseBib, verifiedBibsSql } from '../../rules/privacy';
import { offerLeftFromRow, SPONSOR_PENDING_HOLD_MINUTES, sponsorOfferLeftSql, type SponsorOfferLeftRow } from '../../rules/sponsorOffer';
import { countryOfAddress, pricingCatalogOf, publishedEventJsonSql, type EventRow } from '../events';

/**
 * Who asks for the bill: the client address decides the country calling code (prints need +91),
 * the search session whether the photos of a privacy-checked BIB are released to it.
 */
export interface BillClient {
  ip: string;
  sessionId: number | null;
}

/** A package is the price of the photos it holds: without photos there is nothing to buy. */
export const NO_PHOTOS_MESSAGE = 'Your cart has no photos. Please add photos to your cart before choosing a package.';

interface CartPhotoRow {
  id: number;
  kind: 'image' | 'video';
  /** Every BIB the photo is tagged with (none: an unlabeled photo). */
  bibs: string[];
}

/**
 * Everything the bill reads, in one statement (one round trip, prepared once per connection): the
 * published event, the cart's photos with their BIBs, the BIBs of the event this session verified,
 * DISABLEPRINTS, the print catalogue at the event's prices (only when the cart holds prints) and the
 * sponsor offer with the photos this BIB already took. $1 event, $2 photo ids, $3 BIB, $4 session,
 * $5 DISABLEPRINTS key, $6 sponsor hold minutes, $7 whether the cart holds prints. Each part is the
 * SQL its rule owns; nothing is cached, so an organiser's change holds from the next bill.
 */
const BILL_SQL = `
  select
    ${publishedEventJsonSql('$1')} as event,
    (select coalesce(json_agg(r), '[]') from (
       select p.id, p.kind, coalesce(array_agg(b.bib_number) filter (where b.bib_number is not null), '{}') as bibs
         from photos p left join photo_bibs b on b.photo_id = p.id
        where p.event_id = $1 and p.id = any($2::int[]) and ${READY_PHOTO_SQL}
        group by p.id) r) as photos,
    ${verifiedBibsSql('$4', '$1')} as verified,
    ${disabledPrintsSql('$5')} as disabled_prints,
    case when $7::boolean then ${printProductsJsonSql('$1')} end as prints,
    ${sponsorOfferLeftSql('$1', '$3', '$6')} as offer`;

interface BillRow {
  [column: string]: unknown;
  event: EventRow | null;
  photos: CartPhotoRow[];
  verified: string[];
  disabled_prints: unknown;
  prints: PrintProductRow[] | null;
  offer: SponsorOfferLeftRow | null;
}

/** Whether every BIB the photo is tagged with is released to this session (the privacy rule). */
function isReleasedPhoto(event: { privacy_check: boolean }, photo: CartPhotoRow, sessionId: number | null, verified: string[]): boolean {
  return photo.bibs.every((tag) => bibReleased(event, tag, sessionId, verified.includes(tag)));
}

/** Every photo id a line refers to, with the kind it must be. */
function referencedPhotos(lines: CartLine[]): Array<{ id: number; kind: 'image' | 'video' }> {
  const refs: Array<{ id: number; kind: 'image' | 'video' }> = [];
  for (const l of lines) {
    if (l.category === 'pack') continue;
    if (typeof l.id === 'number') refs.push({ id: l.id, kind: l.type === 'download' && l.category === 'video' ? 'video' : 'image' });
    if (l.type === 'collage') for (const id of l.collagePhotoIds ?? []) refs.push({ id, kind: 'image' });
  }
  return refs;
}

/**
 * The authoritative bill of a cart: loads the event, the photos, print products, sponsor offer and
 * package prices from the database, checks every line, and prices it with the shared computeBill.
 * Create-order calls this too, so an order's amount never comes from the browser.
 */
export async function buildBill(ctx: AppContext, request: CartRequest, client: BillClient): Promise<Bill> {
  const unlabeled = request.searchKind === 'unlabeled';
  const bib = unlabeled ? UNLABELED_BIB : normaliseBib(request.bibNumber);
  const refs = referencedPhotos(request.lines);
  const ids = [...new Set(refs.map((r) => r.id))];
  const hasPrints = request.lines.some((l) => l.type === 'print');
  const hasCollages = request.lines.some((l) => l.type === 'collage');
  // Read first, then check in the order the buyer's messages always came: the event, the lines, the photos, prints.
  const [found] = await ctx.db.query<BillRow>(
    BILL_SQL,
    [request.eventId, ids, bib, client.sessionId, DISABLE_PRINTS_SETTING, SPONSOR_PENDING_HOLD_MINUTES, hasPrints],
    { name: 'cart-bill' },
  );
  const event = found?.event;
  if (!found || !event) throw badRequest('We could not find this event. Please choose an event from the list.');
  if (request.lines.length === 0) throw badRequest('Your cart is empty');

  if (unlabeled && normaliseBib(request.bibNumber) !== UNLABELED_BIB.toUpperCase()) {
    throw badRequest("The unlabeled cart holds unlabeled photos only; its BIB is 'unlabeled'.");
  }
  // Buying releases photos as paging does: unlabeled ones only where the event shows them.
  if (unlabeled) assertUnlabeledReleased(event);

  if (refs.length === 0) throw badRequest(NO_PHOTOS_MESSAGE);
  // Buying is a way to see the photos too: the bill and the order pass the privacy rule as well.
  // The BIB the buyer names is refused first (its BIB search already said it is locked); a photo of
  // a BIB still locked to this session is then answered exactly like a photo the event does not
  // have, so no answer tells an unverified caller which photo ids belong to a locked BIB.
  if (request.searchKind === 'bib') assertBibsReleasedBy(event, [bib], client.sessionId, found.verified);
  const rows = found.photos.filter((r) => isReleasedPhoto(event, r, client.sessionId, found.verified));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const ref of refs) {
    const row = byId.get(ref.id);
    if (!row) throw badRequest(`Photo ${ref.id} is not part of ${event.name}. Please remove it from your cart.`);
    if (row.kind !== ref.kind)
      throw badRequest(`Item ${ref.id} cannot be bought as a ${ref.kind === 'image' ? 'photo' : 'video'}. Please remove it and add it again.`);
    // One order holds images for a single BIB only (selfie results may span BIBs of the event).
    if (unlabeled && row.bibs.length > 0) throw badRequest('The unlabeled cart holds unlabeled photos only.');
    if (request.searchKind === 'bib' && !row.bibs.includes(bib)) {
      throw badRequest(`One order holds images for a single BIB only. Photo ${ref.id} is not of BIB ${bib}.`);
    }
  }

  const { printsDisabled: disabled, printProductInfo } = printOfferFrom(ctx, event.id, found.disabled_prints, found.prints ?? []);
  if (hasCollages && disabled) throw badRequest(`Collages are not available for ${event.name}.`);
  if (hasPrints) {
    if (disabled) throw badRequest(`Prints are not available for ${event.name}.`);
    const { country_calling_code } = await countryOfAddress(client.ip);
    if (!printsDeliverableTo(country_calling_code)) throw badRequest('Prints are delivered only inside India (+91).');
  }

  // The offer's cap belongs to the BIB: photos its earlier orders got discounted count against it.
  const prints = hasPrints ? printProductInfo : [];
  const offer = offerLeftFromRow(found.offer);
  const catalog = pricingCatalogOf(event, prints, offer);

  try {
    const priced = computeBill({ cart: request, catalog });
    return {
      ...priced,
      eventId: event.id,
      eventName: event.name,
      eventLogo: event.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
      bibNumber: unlabeled ? UNLABELED_BIB : bib,
    };
  } catch (error) {
    if (error instanceof PricingError) throw new AppError(400, error.message);
    throw error;
  }
}
