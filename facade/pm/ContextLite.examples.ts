/** Request and response examples of the operations in ContextLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids } from "./WorkAccess.ts"

export const howTo =
  "Lite operations take names (case-insensitive), short ids or ids for spaces, folders and lists; tasks by short id (T-42); " +
  "people by e-mail; statuses, tags and custom fields (and their options) by name. A name matching several items answers 409 listing them: use the short id."

const exampleStatuses = [
  { name: "to do", type: "open" },
  { name: "in progress", type: "active" },
  { name: "done", type: "done" },
  { name: "closed", type: "closed" }
]

const exampleField = { id: ids.field, name: "Environment", type: "dropdown", required: false, options: ["production", "staging"] }

const exampleList = { id: ids.list, shortId: "L-1", name: "Backlog", statuses: exampleStatuses, customFields: [exampleField], openTasks: 8 }

export const contextLiteExamples = examplesById({
  getContextLite: [
    {
      name: "context",
      request: { query: { workspaceId: ids.workspace } },
      response: {
        status: 200,
        body: {
          workspace: { id: ids.workspace, name: "Acme", role: "member" },
          you: { id: ids.user, name: "Alice", email: "alice@example.com" },
          references: { shortIds: { "S-": "space", "F-": "folder", "L-": "list", "T-": "task" }, howTo },
          priorities: ["urgent", "high", "normal", "low"],
          spaces: [
            {
              id: ids.space,
              shortId: "S-1",
              name: "Engineering",
              isPrivate: false,
              statuses: exampleStatuses,
              customFields: [exampleField],
              tags: ["frontend"],
              folders: [{ id: ids.folder, shortId: "F-1", name: "Q4 roadmap", lists: [exampleList] }],
              lists: []
            }
          ],
          members: [
            { name: "Alice", email: "alice@example.com", role: "member", guest: false },
            { name: "Bob", email: "bob@example.com", role: "admin", guest: false }
          ],
          teams: [{ name: "Design", members: ["alice@example.com"] }],
          counts: { spaces: 1, folders: 1, lists: 1, openTasks: 8, members: 2 }
        }
      }
    }
  ]
})
