/**
 * Runs the DeliveryEngine on the outgoing-webhook queue beside the server (every node
 * runs one; leases keep them apart). `WEBHOOK_POLL_MS` sets how often it
 * looks for due deliveries (default 1000).
 */
import { Effect, Layer } from "effect"
import { extension } from "../Extension.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { defaultEngineOptions, runDeliveryEngine } from "../../actors/webhooks/DeliveryEngine.ts"
import { outgoingDeliveryQueue } from "../../actors/webhooks/OutgoingDeliveryQueue.ts"
import { HubUserWebhooks } from "../../actors/hub/webhooks/HubUserWebhooks.ts"
import { USER_WEBHOOK_SOURCE, userWebhookEndpoints } from "../../actors/hub/webhooks/UserWebhooks.ts"

const pollMillis = (): number => {
  const value = Number(process.env.WEBHOOK_POLL_MS)
  return Number.isFinite(value) && value >= 10 ? value : defaultEngineOptions.pollMs
}

/** A 410 disables the endpoint through its owner's actor, the one writer of their webhooks. */
const disableThroughOwner = (ownerId: string, webhookId: string, reason: string) =>
  Effect.flatMap(ActorSystem, (system) => Effect.asVoid(system.ask(HubUserWebhooks, ownerId, "disable", { webhookId, reason })))

export const webhookDeliveryExtension = extension({
  name: "webhook-delivery",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const sources = { [USER_WEBHOOK_SOURCE]: userWebhookEndpoints(disableThroughOwner) }
      yield* Effect.forkIn(runDeliveryEngine(outgoingDeliveryQueue(sources), { ...defaultEngineOptions, pollMs: pollMillis() }), scope)
    })
})
