/**
 * Runs the outgoing-webhook DeliveryWorker beside the server (every node
 * runs one; leases keep them apart). `WEBHOOK_POLL_MS` sets how often it
 * looks for due deliveries (default 1000).
 */
import { Effect, Layer } from "effect"
import type { Extension } from "../../../facade/Extension.ts"
import { defaultWorkerOptions, runDeliveryWorker } from "../../webhooks/DeliveryWorker.ts"
import { USER_WEBHOOK_SOURCE, userWebhookEndpoints } from "./UserWebhooks.ts"

const pollMillis = (): number => {
  const value = Number(process.env.WEBHOOK_POLL_MS)
  return Number.isFinite(value) && value >= 10 ? value : defaultWorkerOptions.pollMillis
}

export const webhookDeliveryExtension: Extension = {
  name: "webhook-delivery",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      yield* Effect.forkIn(
        runDeliveryWorker({ [USER_WEBHOOK_SOURCE]: userWebhookEndpoints }, { ...defaultWorkerOptions, pollMillis: pollMillis() }),
        scope
      )
    })
}
