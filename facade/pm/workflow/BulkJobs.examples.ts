/** Request and response examples of the operations in BulkJobs.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

export const bulkJobsExamples = examplesById({
  getBulkJob: [
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
  ]
})
