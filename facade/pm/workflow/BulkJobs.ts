/**
 * pm tag "Bulk Jobs" (1): the status of any long background job of a
 * workspace (imports today) — its progress and counts, for polling.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { read } from "../../../actors/pm/WorkActor.ts"
import { BulkJob, PmBulkJob } from "../../../actors/pmops/BulkJobs.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { operation } from "../../Operation.ts"
import { at0, exampleIds as ids, inWorkspace } from "../WorkAccess.ts"

export const bulkJobsOperations = [
  operation({
    service: "pm",
    tag: "Bulk Jobs",
    operationId: "getBulkJob",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/bulk-jobs/{jobId}",
    summary: "A background job's status: queued, running, completed or failed, with progress and per-row counts",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id, jobId: Id }),
    responses: { 200: { description: "Job", schema: BulkJob }, 404: { description: "No such job in this workspace" } },
    examples: [
      {
        name: "running",
        request: { params: { workspaceId: ids.workspace, jobId: "e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8a9b" } },
        response: {
          status: 200,
          body: {
            id: "e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8a9b",
            workspaceId: ids.workspace,
            kind: "import",
            source: "csv",
            listId: ids.list,
            status: "running",
            total: 200,
            processed: 50,
            succeeded: 49,
            failed: 1,
            progress: 0.25,
            createdBy: ids.user,
            createdAt: at0,
            updatedAt: at0,
            finishedAt: null
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const job = yield* read(PmBulkJob, params.jobId, "get", {})
        if (job.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such job")
        return job
      })
  })
]
