/**
 * What runs beside the pm operations of this area: the webhook delivery
 * engine on pm's queue (the outbox the change log fills) and
 * the automation engine (runs rules from the change log) and the bulk-job
 * worker (imports); and whiteboards' access on the collab server.
 */
import { Effect } from "effect"
import { extension } from "../Extension.ts"
import { automationWorker } from "../../actors/pmops/AutomationEngine.ts"
import { bulkJobWorker } from "../../actors/pmops/BulkJobs.ts"
import { runDeliveryEngine } from "../../actors/webhooks/DeliveryEngine.ts"
import { pmDeliveryOptionsFromEnv, pmWebhookQueue } from "../../actors/pmops/WebhookQueue.ts"
import { whiteboardDocumentAccess } from "../../actors/pmops/WhiteboardAccess.ts"

const background = Effect.gen(function* () {
  const scope = yield* Effect.scope
  yield* Effect.forkIn(runDeliveryEngine(pmWebhookQueue, pmDeliveryOptionsFromEnv()), scope)
  yield* Effect.forkIn(automationWorker(), scope)
  yield* Effect.forkIn(bulkJobWorker(), scope)
})

export const pmOpsExtension = extension({
  name: "pm-ops",
  layer: () => whiteboardDocumentAccess,
  attach: () => background
})
