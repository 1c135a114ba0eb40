/** Every API response is wrapped in this envelope (spec: StatusCode, Message, HasError, result). */
export interface ApiEnvelope<T> {
  StatusCode: number;
  Message: string;
  HasError: boolean;
  result: T;
}
