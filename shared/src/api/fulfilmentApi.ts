import { API_ROUTES } from './routes';
import { post } from '@finishline/shared/runtime';
import { downloadFile, downloadNamedFile } from './downloadFile';
import type {
  FulfilmentLine,
  FulfilmentQueueRequest,
  FulfilmentQueueResult,
  OrderPrintLine,
  PrintBatchRequest,
  PrintLineStatusRequest,
  PrintRefundRequest,
  PrintRefundResult,
  ReplacementAskFields,
  ReplacementDecisionRequest,
  ReplacementQueueResult,
} from '../types/fulfilment';

/** Typed calls of the print queue (fulfilment staff and operators). */
export const fulfilmentApi = {
  queue: (body: FulfilmentQueueRequest) => post<FulfilmentQueueResult>(API_ROUTES.fulfilmentQueue, body),
  moveLine: (body: PrintLineStatusRequest) => post<FulfilmentLine>(API_ROUTES.fulfilmentLineStatus, body),
  /** A line's print-ready file (private: fetched with the session's token, then saved by the page). */
  lineFile: (lineId: number): Promise<Blob> => downloadFile({ method: 'GET', url: API_ROUTES.fulfilmentLineFile, params: { lineId } }),
  /** A zip of these lines' print-ready files with the batch's packing list (PDF). */
  batch: (body: PrintBatchRequest) => downloadNamedFile({ method: 'POST', url: API_ROUTES.fulfilmentBatch, data: body }),
  /** Refunds a print or collage line (whole or part) through the gateway; pending when the gateway fails. */
  refund: (body: PrintRefundRequest) => post<PrintRefundResult>(API_ROUTES.fulfilmentRefund, body),
  replacements: () => post<ReplacementQueueResult>(API_ROUTES.fulfilmentReplacements, {}),
  decideReplacement: (body: ReplacementDecisionRequest) => post<FulfilmentLine>(API_ROUTES.fulfilmentReplacementDecide, body),
  /** The runner's photo of the damage (private, fetched with the session's token). */
  replacementPhoto: (requestId: number): Promise<Blob> => downloadFile({ method: 'GET', url: API_ROUTES.fulfilmentReplacementPhoto, params: { requestId } }),
  /** The runner asks for a replacement of a delivered print, with a photo of the damage. */
  askReplacement: (fields: ReplacementAskFields, photo: Blob, fileName: string) => {
    const form = new FormData();
    form.append('orderID', fields.orderID);
    form.append('lineId', String(fields.lineId));
    form.append('note', fields.note ?? '');
    form.append('photo', photo, fileName);
    return post<OrderPrintLine>(API_ROUTES.orderReplacementAsk, form);
  },
  /** The queue as CSV, as the server writes it (every column, the status and search given). */
  exportCsv: (query: FulfilmentQueueRequest): Promise<Blob> => downloadFile({ method: 'GET', url: API_ROUTES.fulfilmentExport, params: query }),
};
