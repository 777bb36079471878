/** The actor kinds of pm webhooks, automations, forms, imports and whiteboards. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { PmAutomations } from "./AutomationRules.ts"
import { PmBulkJobs } from "./BulkJobs.ts"
import { PmForms } from "./Forms.ts"
import { PmWebhooks } from "./Webhooks.ts"
import { PmWhiteboards } from "./Whiteboards.ts"

export const pmOpsActorKinds: ReadonlyArray<ActorKind> = [PmWebhooks, PmAutomations, PmForms, PmBulkJobs, PmWhiteboards]
