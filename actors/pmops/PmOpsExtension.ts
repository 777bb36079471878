/**
 * What runs beside the pm operations of this area: the webhook delivery
 * worker (drains the outbox the change log fills).
 */
import { Effect, Layer } from "effect"
import type { Extension } from "../../facade/Extension.ts"
import { deliveryWorker } from "./WebhookDelivery.ts"

const background = Effect.gen(function* () {
  const scope = yield* Effect.scope
  yield* Effect.forkIn(deliveryWorker(), scope)
})

export const pmOpsExtension: Extension = {
  name: "pm-ops",
  layer: () => Layer.empty,
  attach: () => background
}
