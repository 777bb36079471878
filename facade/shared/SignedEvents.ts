/**
 * Inbound signed events (the payment provider's, the bot provider's): the
 * `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` signature checked
 * over the raw bytes with a 5-minute tolerance (actors/billing/PaymentSignature.ts),
 * then the body parsed and decoded. A bad or stale signature is a 401, a
 * malformed body a 400 naming the field; nothing is applied before both pass.
 */
import { Effect, Exit, Schema, SchemaIssue } from "effect"
import { verifyPayment } from "../../actors/billing/PaymentSignature.ts"
import { reject } from "../../runtime/Rejection.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const utf8 = new TextDecoder("utf-8", { fatal: true })

export interface SignedDelivery {
  /** The shared secret; empty when the sender is not configured (then 403, naming `setting`). */
  readonly secret: string
  readonly setting: string
  /** The signature header's value. */
  readonly signature: string
  readonly bytes: Uint8Array
}

export const verifiedEvent = <A>(schema: Schema.Codec<A, any>, delivery: SignedDelivery) =>
  Effect.gen(function* () {
    if (delivery.secret === "") return yield* reject("forbidden", `These events are not configured (${delivery.setting})`)
    const check = verifyPayment(delivery.secret, delivery.signature, delivery.bytes)
    if (!check.ok) return yield* reject("unauthorized", check.reason)
    let parsed: unknown
    try {
      parsed = JSON.parse(utf8.decode(delivery.bytes))
    } catch {
      return yield* reject("invalid", "The event is not JSON", [{ path: "body", message: "malformed JSON" }])
    }
    const exit = Schema.decodeUnknownExit(schema, { onExcessProperty: "ignore", errors: "all" })(parsed)
    if (Exit.isFailure(exit)) {
      const error = Exit.findErrorOption(exit)
      const issues = error._tag === "Some" ? formatIssues(error.value.issue).issues : []
      const details = issues.map((issue) => ({
        path: ["body", ...(issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key))].join("."),
        message: issue.message
      }))
      return yield* reject("invalid", `Invalid event: ${details[0]?.path ?? "body"}`, details)
    }
    return exit.value
  })
