/** The actor kinds of pm webhooks, automations, forms, imports and whiteboards. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { PmAutomations } from "./AutomationRules.ts"
import { PmBulkJob } from "./BulkJobs.ts"
import { PmForm } from "./Forms.ts"
import { PmWebhooks } from "./Webhooks.ts"
import { PmWhiteboard, PmWhiteboardTemplates } from "./Whiteboards.ts"

export const pmOpsActorKinds: ReadonlyArray<ActorKind> = [PmWebhooks, PmAutomations, PmForm, PmBulkJob, PmWhiteboard, PmWhiteboardTemplates]
