/** Request and response examples of the operations in Folders.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleCounts, exampleTask, exampleFolder } from "./WorkExamples.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

const sp = { spaceId: ids.space }

const fo = { folderId: ids.folder }

export const foldersExamples = examplesById({
  createFolder: [{ name: "create", request: { params: sp, body: { name: "Q4 roadmap" } }, response: { status: 201, body: exampleFolder } }],
  listFolders: [{ name: "list", request: { params: sp }, response: { status: 200, body: { items: [exampleFolder] } } }],
  getFolder: [{ name: "get", request: { params: fo }, response: { status: 200, body: exampleFolder } }],
  updateFolder: [
    {
      name: "rename",
      request: { params: fo, body: { name: "2027 roadmap" } },
      response: { status: 200, body: { ...exampleFolder, name: "2027 roadmap" } }
    }
  ],
  deleteFolder: [{ name: "delete", request: { params: fo }, response: { status: 204 } }],
  archiveFolder: [
    { name: "archive", request: { params: fo }, response: { status: 200, body: { ...exampleFolder, archived: true, archivedAt: at0 } } }
  ],
  restoreFolder: [{ name: "restore", request: { params: fo }, response: { status: 200, body: exampleFolder } }],
  moveFolder: [{ name: "move", request: { params: fo, body: { spaceId: ids.space } }, response: { status: 200, body: exampleFolder } }],
  reorderFolders: [
    {
      name: "reorder",
      request: { params: sp, body: { folderIds: [ids.folder] } },
      response: { status: 200, body: { folderIds: [ids.folder] } }
    }
  ],
  duplicateFolder: [
    {
      name: "duplicate",
      request: { params: fo, body: { name: "Q1 roadmap" } },
      response: { status: 201, body: { ...exampleFolder, name: "Q1 roadmap" } }
    }
  ],
  getFolderByShortId: [
    {
      name: "by-short-id",
      request: { params: { workspaceId: ids.workspace, shortId: "F-1" } },
      response: { status: 200, body: exampleFolder }
    }
  ],
  listFolderTasks: [
    {
      name: "tasks",
      request: { params: fo, query: { statuses: "in progress" } },
      response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } }
    }
  ],
  getFolderStats: [
    {
      name: "stats",
      request: { params: fo },
      response: {
        status: 200,
        body: { taskCounts: exampleCounts, listCount: 1, byList: [{ listId: ids.list, name: "Backlog", taskCounts: exampleCounts }] }
      }
    }
  ]
})
