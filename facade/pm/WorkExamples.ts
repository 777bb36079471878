/** Example payloads of the work hierarchy's operations (the catalog's examples tier and OpenAPI show them). */
import { defaultFeatures } from "../../actors/pm/WorkRecords.ts"
import { at0, exampleIds as ids } from "./WorkAccess.ts"

export const exampleSpace = {
  id: ids.space,
  workspaceId: ids.workspace,
  shortId: "S-1",
  name: "Engineering",
  description: "Product engineering",
  color: "#7b68ee",
  isPrivate: false,
  position: 1,
  features: defaultFeatures,
  taskDefaults: {},
  archived: false,
  archivedAt: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const exampleFolder = {
  id: ids.folder,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  shortId: "F-1",
  name: "Q4 roadmap",
  description: "",
  color: null,
  position: 1,
  ownStatuses: false,
  archived: false,
  archivedAt: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const exampleList = {
  id: ids.list,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  folderId: ids.folder,
  shortId: "L-1",
  name: "Backlog",
  description: "",
  color: null,
  priority: null,
  startDate: null,
  dueDate: null,
  ownerId: null,
  taskDefaults: {},
  position: 1,
  ownStatuses: false,
  archived: false,
  archivedAt: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const exampleUser = { id: ids.user2, email: "bob@example.com", name: "Bob" }

export const exampleTag = { id: ids.tag, spaceId: ids.space, name: "frontend", color: "#8d8d8d", createdAt: at0 }

export const exampleTask = {
  id: ids.task,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  folderId: ids.folder,
  listId: ids.list,
  parentTaskId: null,
  shortId: "T-42",
  name: "Ship the login page",
  description: "Email + password, remember me.",
  status: { name: "in progress", type: "active", color: "#5f55ee" },
  priority: "high",
  startDate: null,
  dueDate: "2026-12-01T17:00:00.000Z",
  timeEstimateMinutes: 240,
  position: 3,
  assignees: [exampleUser],
  watcherIds: [ids.user, ids.user2],
  tags: [exampleTag],
  customFields: [{ fieldId: ids.field, name: "Story points", type: "number", value: 5 }],
  subtaskCount: 0,
  recurrence: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0,
  closedAt: null,
  archived: false,
  archivedAt: null,
  deletedAt: null,
  version: 4
}

export const exampleStatuses = [
  { id: ids.status, name: "to do", type: "open", color: "#87909e", position: 1 },
  { id: "6b7c8d9e-0f1a-4b2c-9d4e-5f6a7b8c9d0f", name: "in progress", type: "active", color: "#5f55ee", position: 2 },
  { id: "6b7c8d9e-0f1a-4b2c-9d4e-5f6a7b8c9d1a", name: "done", type: "done", color: "#30a46c", position: 3 },
  { id: "6b7c8d9e-0f1a-4b2c-9d4e-5f6a7b8c9d1b", name: "closed", type: "closed", color: "#008844", position: 4 }
]

export const exampleField = {
  id: ids.field,
  workspaceId: ids.workspace,
  scopeType: "space",
  scopeId: ids.space,
  name: "Environment",
  type: "dropdown",
  description: "",
  required: false,
  config: { options: [{ id: ids.option, name: "production", color: "#e5484d" }] },
  position: 1,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const exampleCounts = { total: 12, open: 5, active: 3, done: 2, closed: 2, overdue: 1 }

export const exampleComment = {
  id: ids.comment,
  taskId: ids.task,
  parentCommentId: null,
  author: { id: ids.user, email: "alice@example.com", name: "Alice" },
  text: "@bob@example.com can you review?",
  mentions: [exampleUser],
  assignee: null,
  resolved: false,
  resolvedAt: null,
  resolvedBy: null,
  replyCount: 0,
  reactions: [],
  createdAt: at0,
  updatedAt: at0
}

export const exampleAttachment = {
  id: ids.attachment,
  taskId: ids.task,
  filename: "screenshot.png",
  contentType: "image/png",
  size: 48213,
  uploadedBy: ids.user,
  createdAt: at0
}

export const exampleTimeEntry = {
  id: ids.entry,
  taskId: ids.task,
  userId: ids.user,
  startedAt: "2026-11-21T09:00:00.000Z",
  endedAt: "2026-11-21T10:30:00.000Z",
  durationMinutes: 90,
  note: "Pairing",
  billable: false,
  createdAt: at0
}

export const exampleTaskSummary = { id: ids.task2, shortId: "T-43", name: "Design review", status: "to do", listId: ids.list }
