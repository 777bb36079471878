/**
 * pm tag "Bulk Jobs" (1): the status of any long background job of a
 * workspace (imports today) — its progress and counts, for polling.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { read } from "../../../actors/pm/WorkActor.ts"
import { BulkJob, PmBulkJob } from "../../../actors/pmops/BulkJobs.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace } from "../WorkAccess.ts"
import { bulkJobsExamples } from "./BulkJobs.examples.ts"

const { operation } = tagGroup("pm", "Bulk Jobs", bulkJobsExamples)

export const bulkJobsOperations = [
  operation({
    operationId: "getBulkJob",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/bulk-jobs/{jobId}",
    summary: "A background job's status: queued, running, completed or failed, with progress and per-row counts",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id, jobId: Id }),
    responses: { 200: { description: "Job", schema: BulkJob }, 404: { description: "No such job in this workspace" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const job = yield* read(PmBulkJob, params.jobId, "get", {})
        if (job.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such job")
        return job
      })
  })
]
