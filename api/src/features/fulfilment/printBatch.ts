import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { PRINT_BATCH_STATUSES, type FulfilmentLine } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../http/envelope';
import { storedZip, type ZipEntry } from '../../media/storedZip';
import { LINE_SELECT, toFulfilmentLine, type LineViewRow } from './printLines';

/**
 * A batch download for the print shop: the print-ready files of the chosen lines and one packing
 * list (PDF) naming, parcel by parcel (one per order, since an order has one address), what goes
 * in it and where it goes. Every batch is recorded with its lines, so the packing list carries a
 * batch number and the queue shows which lines already went to the printer.
 */

const require = createRequire(import.meta.url);
// Montserrat (already shipped for certificates) covers Latin with accents and the rupee sign,
// which the PDF standard fonts do not.
const FONT_REGULAR = require.resolve('@expo-google-fonts/montserrat/400Regular/Montserrat_400Regular.ttf');
const FONT_BOLD = require.resolve('@expo-google-fonts/montserrat/600SemiBold/Montserrat_600SemiBold.ttf');

export const linesNotFoundMessage = (ids: number[]) => `We could not find print ${ids.length === 1 ? 'line' : 'lines'} ${ids.join(', ')}.`;
export const linesNotReadyMessage = (ids: number[]) =>
  `${ids.length === 1 ? 'Line' : 'Lines'} ${ids.join(', ')} ${ids.length === 1 ? 'has' : 'have'} no print-ready file yet or ${ids.length === 1 ? 'is' : 'are'} held: leave ${ids.length === 1 ? 'it' : 'them'} out of the batch.`;
export const linesDoneMessage = (ids: number[]) =>
  `${ids.length === 1 ? 'Line' : 'Lines'} ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} already shipped, delivered or returned: a batch holds lines still to print or ship.`;

export interface PrintBatch {
  id: number;
  fileName: string;
  size: number;
  stream: NodeJS.ReadableStream;
}

interface BatchLine extends FulfilmentLine {
  fileKey: string;
  fileName: string;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The name of a line's file inside the batch: the order, the line and the product, so a print can be matched to its parcel by eye. */
export const batchFileName = (line: Pick<FulfilmentLine, 'orderRef' | 'id' | 'product'>) => `${line.orderRef}-line${line.id}-${slug(line.product)}.jpg`;

/** Checks the lines, records the batch and returns its zip (files streamed from storage one at a time). */
export async function makePrintBatch(ctx: AppContext, lineIds: number[], madeBy: { id: number; name: string }, now = new Date()): Promise<PrintBatch> {
  const rows = await ctx.db.query<LineViewRow>(`${LINE_SELECT} where l.id = any($1::int[]) order by o.order_ref, l.id`, [lineIds]);
  const missing = lineIds.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length > 0) throw notFound(linesNotFoundMessage(missing));
  const done = rows.filter((r) => !PRINT_BATCH_STATUSES.includes(r.status)).map((r) => r.id);
  if (done.length > 0) throw new AppError(409, linesDoneMessage(done));
  const notReady = rows.filter((r) => r.file_state !== 'ready' || !r.file_key).map((r) => r.id);
  if (notReady.length > 0) throw new AppError(409, linesNotReadyMessage(notReady));

  const lines: BatchLine[] = rows.map((r) => {
    const line = toFulfilmentLine(r, now.getTime());
    return { ...line, fileKey: r.file_key!, fileName: `files/${batchFileName(line)}` };
  });
  // Sizes first: the zip's length is known before a byte is sent, and a file gone from storage
  // refuses the batch with its line rather than breaking the download half-way.
  const sizes = await Promise.all(lines.map(async (line) => (await ctx.storage.stat(line.fileKey))?.size ?? null));
  const lost = lines.filter((_line, i) => sizes[i] === null).map((line) => line.id);
  if (lost.length > 0) throw new AppError(409, linesNotReadyMessage(lost));

  const batchId = await ctx.db.transaction(async (tx) => {
    const [batch] = await tx.query<{ id: number }>('insert into print_batches (made_by, created_at) values ($1, $2) returning id', [madeBy.id, now]);
    await tx.query('insert into print_batch_lines (batch_id, line_id) select $1, unnest($2::int[])', [batch!.id, lines.map((l) => l.id)]);
    return batch!.id;
  });

  const packingList = await packingListPdf({ batchId, lines, madeBy: madeBy.name, at: now });
  const entries: ZipEntry[] = [
    { name: 'packing-list.pdf', modifiedAt: now, data: packingList },
    ...lines.map((line, i): ZipEntry => ({ name: line.fileName, modifiedAt: now, size: sizes[i]!, open: () => ctx.storage.getStream(line.fileKey) })),
  ];
  const zip = storedZip(entries);
  return { id: batchId, fileName: `print-batch-${batchId}.zip`, size: zip.size, stream: zip.stream };
}

const when = (at: Date) => new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'medium', timeStyle: 'short' }).format(at);

/** The packing list: one block per parcel (order), a box to tick per line. */
export async function packingListPdf(batch: { batchId: number; lines: BatchLine[]; madeBy: string; at: Date }): Promise<Buffer> {
  const parcels = new Map<string, BatchLine[]>();
  for (const line of batch.lines) parcels.set(line.orderRef, [...(parcels.get(line.orderRef) ?? []), line]);

  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Packing list, print batch ${batch.batchId}`, Author: 'Finishline' } });
  doc.registerFont('Body', FONT_REGULAR);
  doc.registerFont('Bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });

  const width = doc.page.width - 80;
  doc.font('Bold').fontSize(18).text(`Packing list: print batch ${batch.batchId}`);
  doc
    .font('Body')
    .fontSize(10)
    .text(
      `${when(batch.at)} (IST), downloaded by ${batch.madeBy}. ${batch.lines.length} ${batch.lines.length === 1 ? 'line' : 'lines'} in ${parcels.size} ${parcels.size === 1 ? 'parcel' : 'parcels'}.`,
    );
  doc.moveDown();

  let n = 0;
  for (const [orderRef, lines] of parcels) {
    n += 1;
    const first = lines[0]!;
    // Keep a parcel's block on one page where it fits.
    if (doc.y > doc.page.height - 160) doc.addPage();
    doc.font('Bold').fontSize(12).text(`Parcel ${n} of ${parcels.size}: order ${orderRef}`, { width });
    doc.font('Body').fontSize(10).text(`Ship to: ${first.buyerName}, ${first.phone}`, { width });
    doc.text(`${first.shippingAddress ?? 'No address given'}${first.pincode ? `, PIN ${first.pincode}` : ''}`, { width });
    if (first.printInstruction.trim()) doc.text(`Print instruction: ${first.printInstruction.trim()}`, { width });
    doc.moveDown(0.3);
    for (const line of lines) {
      if (doc.y > doc.page.height - 80) doc.addPage();
      const top = doc.y + 2;
      doc.rect(40, top, 9, 9).stroke();
      const what = `Line ${line.id}: ${line.product} x ${line.quantity}${line.orientation && line.kind !== 'collage' ? ` (${line.orientation})` : ''}${line.replacementOf ? `, replacement of line ${line.replacementOf}` : ''}`;
      doc.font('Bold').text(what, 56, doc.y, { width: width - 16 });
      doc
        .font('Body')
        .text(
          `${line.eventName}, BIB ${line.bibNumber}. File ${line.fileName.slice('files/'.length)}, ${line.fileWidth} x ${line.fileHeight} px at ${line.fileDpi} dpi. Status: ${line.status}.`,
          56,
          doc.y,
          { width: width - 16 },
        );
      if (line.warning) doc.text(`Note: ${line.warning}`, 56, doc.y, { width: width - 16 });
      doc.x = 40;
      doc.moveDown(0.4);
    }
    doc.moveDown();
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
