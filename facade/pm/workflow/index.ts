/** pm operations of webhooks, automations, form views, imports (one file per tag beside this one) and whiteboards (../whiteboards). */
import type { AnyOperation } from "../../Operation.ts"
import { pmWhiteboardOperations } from "../whiteboards/index.ts"
import { adminAutomationsOperations } from "./AdminAutomations.ts"
import { adminDlqOperations } from "./AdminDlq.ts"
import { automationOperations } from "./Automation.ts"
import { bulkJobsOperations } from "./BulkJobs.ts"
import { importOperations } from "./Import.ts"
import { formViewsOperations } from "./FormViews.ts"
import { webhookResourceOperations } from "./WebhookResource.ts"

export const pmWorkflowOperations: ReadonlyArray<AnyOperation> = [
  ...webhookResourceOperations,
  ...adminDlqOperations,
  ...automationOperations,
  ...adminAutomationsOperations,
  ...formViewsOperations,
  ...importOperations,
  ...bulkJobsOperations,
  ...pmWhiteboardOperations
]
