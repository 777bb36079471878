/**
 * Idempotency keys: a write that may be sent more than once (its first
 * attempt's outcome is unknown: the reply was lost, the connection dropped,
 * the owner went silent) carries a key. The owner records the key in the same
 * fenced transaction as the message's writes (`Fence.requests`, see
 * `ShardFences.ts`), with the encoded reply once it is known, and answers a
 * re-sent key from the record instead of running the handler again. The
 * runtime only defines the port; `persistence/SqlRequestLog.ts` implements it.
 */
import { Context, type Effect } from "effect"
import type { StoreFailure } from "./ActorStore.ts"

/**
 * How long a key is kept (and answered): a re-send by the runtime comes within one request deadline (10 s
 * by default); ten minutes leave a wide margin for API clients that retry by hand (`Idempotency-Key`).
 */
export const retentionMillis = 10 * 60_000

export interface RecordedRequest {
  /** The encoded reply (see `MessageCodec.encodeOutcome`); undefined: the writes committed but no reply was recorded. */
  readonly reply: string | undefined
}

export interface RequestLogShape {
  /** The record of `key`, or undefined if no write of it ever committed (within the retention). */
  readonly lookup: (key: string) => Effect.Effect<RecordedRequest | undefined, StoreFailure>
  /** Records the reply of a key whose writes have committed (a no-op for an unknown key). */
  readonly complete: (key: string, reply: string) => Effect.Effect<void, StoreFailure>
}

export class RequestLog extends Context.Service<RequestLog, RequestLogShape>()("atrium/runtime/RequestLog") {}
