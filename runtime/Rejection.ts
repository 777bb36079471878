/**
 * A refusal by domain rules (not a defect): travels back to the caller as a
 * value, across NATS too, and the facade maps `code` to an HTTP status.
 */
import { Schema } from "effect"

export const RejectionCode = Schema.Literals([
  "invalid",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "too_large",
  "unsupported_media_type",
  "rate_limited",
  "payment_required",
  "bad_gateway",
  "gateway_timeout"
])
export type RejectionCode = typeof RejectionCode.Type

export const RejectionDetail = Schema.Struct({ path: Schema.String, message: Schema.String })
export type RejectionDetail = typeof RejectionDetail.Type

export class Rejection extends Schema.TaggedError<Rejection>()("Rejection", {
  code: RejectionCode,
  message: Schema.String,
  details: Schema.optionalKey(Schema.Array(RejectionDetail))
}) {}

export const reject = (code: RejectionCode, message: string, details?: ReadonlyArray<RejectionDetail>): Rejection =>
  new Rejection(details ? { code, message, details } : { code, message })
