// The cart feature's public entry: the server's bill, which create-order charges.
export { buildBill } from './bill';
