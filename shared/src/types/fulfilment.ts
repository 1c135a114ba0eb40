/**
 * Prints and collages after payment: print lines, their print-ready files and statuses, as the
 * fulfilment screens and the runner's order page see them.
 */
export const PRINT_LINE_STATUSES = ['queued', 'printed', 'shipped', 'delivered', 'returned'] as const;
export type PrintLineStatus = (typeof PRINT_LINE_STATUSES)[number];

/** The only moves a line makes: forward, one step (a shipped line may also come back as returned). */
export const PRINT_LINE_NEXT: Record<PrintLineStatus, readonly PrintLineStatus[]> = {
  queued: ['printed'],
  printed: ['shipped'],
  shipped: ['delivered', 'returned'],
  delivered: ['returned'],
  returned: [],
};

/** What the runner reads for a status. */
export const PRINT_STATUS_LABELS: Record<PrintLineStatus, string> = {
  queued: 'Being prepared',
  printed: 'Printed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  returned: 'Returned',
};

export type PrintFileState = 'pending' | 'ready' | 'held';

/** A batch download holds at most this many lines (their print-ready files and one packing list). */
export const PRINT_BATCH_MAX_LINES = 50;
/** Only lines still to be printed or shipped go into a batch. */
export const PRINT_BATCH_STATUSES: readonly PrintLineStatus[] = ['queued', 'printed'];

/**
 * The spec's refund policy, word for word: the refund dialog and the runner's refund mail show it,
 * and a refund of a download is refused with its first sentence.
 */
export const REFUND_POLICY = 'Digital downloads are non-refundable. Other refunds within 12 to 15 business days.';
export const DOWNLOADS_NOT_REFUNDABLE_MESSAGE = 'Digital downloads are non-refundable.';
/** A runner may ask for a replacement of a delivered print within this many days of its delivery. */
export const REPLACEMENT_WINDOW_DAYS = 7;
/** The photo of the damage: an image of at most this size. */
export const REPLACEMENT_PHOTO_MAX_MB = 5;

export type PrintRefundStatus = 'pending' | 'refunded';
export type ReplacementStatus = 'requested' | 'approved' | 'declined';

/** A runner's replacement request as fulfilment and the runner see it. */
export interface ReplacementRequestView {
  id: number;
  lineId: number;
  status: ReplacementStatus;
  note: string;
  declineReason: string | null;
  /** The new line an approval queued (at no charge). */
  replacementLineId: number | null;
  createdAt: string;
  decidedAt: string | null;
}

/** One print line on the fulfilment queue. */
export interface FulfilmentLine {
  id: number;
  /** The bought order line (a replacement line shares its original's). */
  orderItemId: number;
  orderRef: string;
  kind: 'print' | 'collage';
  product: string;
  quantity: number;
  photoIds: number[];
  orientation: string | null;
  status: PrintLineStatus;
  fileState: PrintFileState;
  fileDpi: number | null;
  fileWidth: number | null;
  fileHeight: number | null;
  holdReason: string | null;
  warning: string | null;
  courier: string | null;
  trackingNumber: string | null;
  amount: number;
  refunded: number;
  /** Refunds recorded but not yet accepted by the gateway (retried until they are): "Refund pending". */
  refundPending: number;
  /** The gateway's last answer to a pending refund. */
  refundError: string | null;
  /** The newest batch download that held this line (its number is on that batch's packing list). */
  lastBatch: number | null;
  replacementOf: number | null;
  /** The line's newest replacement request, if any. */
  replacementRequest: ReplacementRequestView | null;
  buyerName: string;
  phone: string;
  shippingAddress: string | null;
  pincode: string | null;
  printInstruction: string;
  eventName: string;
  bibNumber: string;
  paidAt: string | null;
  createdAt: string;
  /** Hours since the line was queued (the queue is ordered by age, oldest first). */
  ageHours: number;
}

export interface FulfilmentQueueRequest {
  status?: PrintLineStatus | 'all';
  /** An order reference (whole or its start). */
  search?: string;
}

export interface FulfilmentQueueResult {
  lines: FulfilmentLine[];
}

export interface PrintLineStatusRequest {
  lineId: number;
  status: PrintLineStatus;
  courier?: string;
  trackingNumber?: string;
}

/** A print line as the runner's order page shows it. */
export interface OrderPrintLine {
  id: number;
  kind: 'print' | 'collage';
  product: string;
  status: PrintLineStatus;
  statusLabel: string;
  courier: string | null;
  trackingNumber: string | null;
  replacementOf: number | null;
  refunded: number;
  /** A refund recorded and waiting for the gateway ("Refund pending"). */
  refundPending: number;
  deliveredAt: string | null;
  /** Delivered less than REPLACEMENT_WINDOW_DAYS ago and no request open or approved. */
  canRequestReplacement: boolean;
  replacementRequest: ReplacementRequestView | null;
}

/** Refund of a bought print or collage line, whole or part, in rupees (fulfilment staff or an operator). */
export interface PrintRefundRequest {
  orderItemId: number;
  amount: number;
  /** One key per refund the user means (a retry or a double click sends the same key: one refund). */
  requestKey: string;
}

export interface PrintRefundResult {
  line: FulfilmentLine;
  refund: { id: number; amount: number; status: PrintRefundStatus; lastError: string | null };
}

/** Open replacement requests with their lines (Print Orders). */
export interface ReplacementQueueResult {
  requests: Array<{ request: ReplacementRequestView; line: FulfilmentLine }>;
}

export interface ReplacementDecisionRequest {
  requestId: number;
  approve: boolean;
  /** Required when declining: the runner reads it. */
  reason?: string;
}

/** The runner's request (multipart: these fields and the file field `photo`). */
export interface ReplacementAskFields {
  orderID: string;
  lineId: number;
  note?: string;
}

/** Answer of the operator's fulfilment-role call. */
export interface FulfilmentRoleResult {
  userId: number;
  email: string;
  isFulfilment: boolean;
}

export interface PrintBatchRequest {
  /** The lines of the batch: each with its print-ready file made, still to print or ship. */
  lineIds: number[];
}
