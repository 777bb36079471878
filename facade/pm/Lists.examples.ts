/** Request and response examples of the operations in Lists.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"
import { exampleStatuses, exampleField, exampleCounts, exampleList } from "./WorkExamples.ts"

const sp = { spaceId: ids.space }

const fo = { folderId: ids.folder }

const li = { listId: ids.list }

export const listsExamples = examplesById({
  createList: [
    {
      name: "create",
      request: { params: sp, body: { name: "Backlog" } },
      response: { status: 201, body: { ...exampleList, folderId: null } }
    }
  ],
  createFolderList: [{ name: "create", request: { params: fo, body: { name: "Backlog" } }, response: { status: 201, body: exampleList } }],
  listFolderlessLists: [
    { name: "list", request: { params: sp }, response: { status: 200, body: { items: [{ ...exampleList, folderId: null }] } } }
  ],
  listFolderLists: [{ name: "list", request: { params: fo }, response: { status: 200, body: { items: [exampleList] } } }],
  listAllLists: [
    {
      name: "all",
      request: { params: { workspaceId: ids.workspace } },
      response: { status: 200, body: { items: [{ ...exampleList, spaceName: "Engineering", folderName: "Q4 roadmap" }] } }
    }
  ],
  getList: [{ name: "get", request: { params: li }, response: { status: 200, body: exampleList } }],
  updateList: [
    {
      name: "due",
      request: { params: li, body: { dueDate: "2026-12-31", priority: "high" } },
      response: { status: 200, body: { ...exampleList, dueDate: "2026-12-31T00:00:00.000Z", priority: "high" } }
    }
  ],
  deleteList: [{ name: "delete", request: { params: li }, response: { status: 204 } }],
  archiveList: [
    { name: "archive", request: { params: li }, response: { status: 200, body: { ...exampleList, archived: true, archivedAt: at0 } } }
  ],
  restoreList: [{ name: "restore", request: { params: li }, response: { status: 200, body: exampleList } }],
  moveList: [
    { name: "into-folder", request: { params: li, body: { folderId: ids.folder } }, response: { status: 200, body: exampleList } }
  ],
  reorderLists: [
    {
      name: "reorder",
      request: { params: sp, body: { folderId: ids.folder, listIds: [ids.list] } },
      response: { status: 200, body: { folderId: ids.folder, listIds: [ids.list] } }
    }
  ],
  duplicateList: [
    {
      name: "duplicate",
      request: { params: li, body: { name: "Sprint backlog" } },
      response: { status: 201, body: { ...exampleList, name: "Sprint backlog" } }
    }
  ],
  getListByShortId: [
    {
      name: "by-short-id",
      request: { params: { workspaceId: ids.workspace, shortId: "L-1" } },
      response: { status: 200, body: exampleList }
    }
  ],
  addTaskToList: [
    {
      name: "link",
      request: { params: li, body: { taskId: ids.task } },
      response: { status: 201, body: { taskId: ids.task, listId: ids.list } }
    }
  ],
  removeTaskFromList: [{ name: "unlink", request: { params: { ...li, taskId: ids.task } }, response: { status: 204 } }],
  getListStats: [
    {
      name: "stats",
      request: { params: li },
      response: {
        status: 200,
        body: { taskCounts: exampleCounts, byStatus: [{ name: "to do", type: "open", count: 5 }], completion: 0.33 }
      }
    }
  ],
  getListTaskDefaults: [
    {
      name: "defaults",
      request: { params: li },
      response: { status: 200, body: { own: { priority: "high" }, effective: { priority: "high", dueInDays: 7 } } }
    }
  ],
  updateListTaskDefaults: [
    { name: "defaults", request: { params: li, body: { priority: "high" } }, response: { status: 200, body: { priority: "high" } } }
  ],
  getListSettings: [
    {
      name: "settings",
      request: { params: li },
      response: {
        status: 200,
        body: {
          statuses: { inheritedFrom: "space", sourceId: ids.space, own: false, items: exampleStatuses },
          customFields: [exampleField],
          features: {
            priorities: true,
            dueDates: true,
            startDates: true,
            timeEstimates: true,
            tags: true,
            customFields: true,
            checklists: true,
            timeTracking: true,
            multipleAssignees: true
          },
          taskDefaults: {}
        }
      }
    }
  ],
  exportListCsv: [
    {
      name: "csv",
      request: { params: li },
      response: {
        status: 200,
        body: "shortId,name,status,priority,assignees,startDate,dueDate,timeEstimateMinutes,tags,createdAt,Story points\r\nT-42,Ship the login page,in progress,high,bob@example.com,,2026-12-01T17:00:00.000Z,240,frontend,2026-11-21T12:00:00.000Z,5\r\n"
      }
    }
  ],
  archiveListClosedTasks: [
    { name: "sweep", request: { params: li }, response: { status: 200, body: { archived: 1, taskIds: [ids.task] } } }
  ]
})
