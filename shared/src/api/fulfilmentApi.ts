import { API_ROUTES } from './routes';
import { http, post } from '@finishline/shared/runtime';
import type {
  FulfilmentLine,
  FulfilmentQueueRequest,
  FulfilmentQueueResult,
  OrderPrintLine,
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
  lineFile: async (lineId: number): Promise<Blob> => (await http.get<Blob>(API_ROUTES.fulfilmentLineFile, { params: { lineId }, responseType: 'blob' })).data,
  /** The queue as CSV, as the server writes it (every column, the status and search given). */
  /** Refunds a print or collage line (whole or part) through the gateway; pending when the gateway fails. */
  refund: (body: PrintRefundRequest) => post<PrintRefundResult>(API_ROUTES.fulfilmentRefund, body),
  replacements: () => post<ReplacementQueueResult>(API_ROUTES.fulfilmentReplacements, {}),
  decideReplacement: (body: ReplacementDecisionRequest) => post<FulfilmentLine>(API_ROUTES.fulfilmentReplacementDecide, body),
  /** The runner's photo of the damage (private, fetched with the session's token). */
  replacementPhoto: async (requestId: number): Promise<Blob> => (await http.get<Blob>(API_ROUTES.fulfilmentReplacementPhoto, { params: { requestId }, responseType: 'blob' })).data,
  /** The runner asks for a replacement of a delivered print, with a photo of the damage. */
  askReplacement: (fields: ReplacementAskFields, photo: Blob, fileName: string) => {
    const form = new FormData();
    form.append('orderID', fields.orderID);
    form.append('lineId', String(fields.lineId));
    form.append('note', fields.note ?? '');
    form.append('photo', photo, fileName);
    return post<OrderPrintLine>(API_ROUTES.orderReplacementAsk, form);
  },
  exportCsv: async (query: FulfilmentQueueRequest): Promise<Blob> => (await http.get<Blob>(API_ROUTES.fulfilmentExport, { params: query, responseType: 'blob' })).data,
};
