/** Request and response examples of the operations in Import.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

const jobId = "e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8a9b"

const exampleCsv = "Title,Details,Priority,Due,Labels\nShip the login page,OAuth and password,high,2026-12-01,frontend;auth\n"

const exampleJob = {
  id: jobId,
  workspaceId: ids.workspace,
  kind: "import",
  source: "csv",
  listId: ids.list,
  status: "queued",
  total: 1,
  processed: 0,
  succeeded: 0,
  failed: 0,
  progress: 0,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0,
  finishedAt: null
}

export const importExamples = examplesById({
  previewCsvImport: [
    {
      name: "preview",
      request: { params: { listId: ids.list }, body: { csv: exampleCsv } },
      response: {
        status: 200,
        body: {
          columns: [
            { header: "Title", target: "name", guessed: true },
            { header: "Details", target: "description", guessed: true },
            { header: "Priority", target: "priority", guessed: true },
            { header: "Due", target: "dueDate", guessed: true },
            { header: "Labels", target: "tags", guessed: true }
          ],
          total: 1,
          rows: [
            {
              row: 1,
              task: {
                name: "Ship the login page",
                description: "OAuth and password",
                priority: "high",
                dueDate: "2026-12-01",
                tags: ["frontend", "auth"]
              },
              error: null
            }
          ]
        }
      }
    }
  ],
  importCsv: [
    { name: "csv", request: { params: { listId: ids.list }, body: { csv: exampleCsv } }, response: { status: 202, body: exampleJob } }
  ],
  importToolCsv: [
    {
      name: "clickup",
      request: {
        params: { listId: ids.list },
        body: { format: "clickup", csv: "Task Name,Status,Priority\nShip the login page,to do,2\n" }
      },
      response: { status: 202, body: { ...exampleJob, source: "clickup" } }
    }
  ],
  importTrelloBoard: [
    {
      name: "trello",
      request: {
        params: { listId: ids.list },
        body: {
          board: {
            name: "Roadmap",
            lists: [{ id: "5f1a", name: "in progress" }],
            cards: [{ id: "6a2b", name: "Ship the login page", desc: "OAuth and password", idList: "5f1a", labels: [{ name: "frontend" }] }]
          }
        }
      },
      response: { status: 202, body: { ...exampleJob, source: "trello" } }
    }
  ],
  getImport: [
    {
      name: "get",
      request: { params: { importId: jobId } },
      response: {
        status: 200,
        body: {
          ...exampleJob,
          status: "completed",
          processed: 1,
          succeeded: 1,
          progress: 1,
          finishedAt: at0,
          rows: [{ row: 1, status: "succeeded", taskId: ids.task, error: null }]
        }
      }
    }
  ],
  retryImport: [{ name: "retry", request: { params: { importId: jobId } }, response: { status: 202, body: exampleJob } }]
})
