/**
 * A success envelope already serialized to JSON, for answers that are the same for every caller and
 * change rarely (the industry list): the JSON is built once per change instead of once per request. The
 * envelope (EnvelopeInterceptor) sends it as it is.
 */
export class SerializedEnvelope {
  private constructor(readonly json: string) {}

  /** `{ "data": data }`, serialized now. */
  static of(data: unknown): SerializedEnvelope {
    return new SerializedEnvelope(JSON.stringify({ data }));
  }
}
