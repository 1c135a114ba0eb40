// The fulfilment feature's public entry: print lines of an order (the runner's order page), the
// runner's replacement request, the print-files job and the print-refunds job.
export { materialisePrintLines, orderPrintLines } from './printLines';
export { preparePrintFiles } from './printFilesJob';
export { retryDueRefunds } from './refunds';
export { askReplacement, PHOTO_TOO_LARGE_MESSAGE, REPLACEMENT_ASKED_MESSAGE } from './replacements';
