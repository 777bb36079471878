/**
 * pm tag "Tasks" (94): task CRUD, moves and order, subtasks, assignees,
 * watchers, priorities, dates and estimates, custom field values (validated
 * against their definitions), tags, checklists, comments with threaded
 * replies, attachments (bytes in the BlobStore), time tracking, recurrence,
 * templates, the trash, and bulk operations. Every write of one task goes
 * through that task's actor (creation through its list's actor), so
 * concurrent edits of one task are serialized and none is lost.
 */
import type { AnyOperation } from "../Operation.ts"
import { taskCoreOperations } from "./tasks/Core.ts"
import { taskSubtasksOperations } from "./tasks/Subtasks.ts"
import { taskAssigneesOperations } from "./tasks/Assignees.ts"
import { taskWatchersOperations } from "./tasks/Watchers.ts"
import { taskCustomFieldValuesOperations } from "./tasks/CustomFieldValues.ts"
import { taskTagsOperations } from "./tasks/Tags.ts"
import { taskChecklistsOperations } from "./tasks/Checklists.ts"
import { taskCommentsOperations } from "./tasks/Comments.ts"
import { taskAttachmentsOperations } from "./tasks/Attachments.ts"
import { taskTimeTrackingOperations } from "./tasks/TimeTracking.ts"
import { taskRecurrenceOperations } from "./tasks/Recurrence.ts"
import { taskListLinksOperations } from "./tasks/ListLinks.ts"
import { taskBulkOperations } from "./tasks/Bulk.ts"
import { taskTemplatesOperations } from "./tasks/Templates.ts"
import { taskTrashOperations } from "./tasks/Trash.ts"
import { taskReadoutsOperations } from "./tasks/Readouts.ts"

export const tasksOperations: ReadonlyArray<AnyOperation> = [
  ...taskCoreOperations,
  ...taskSubtasksOperations,
  ...taskAssigneesOperations,
  ...taskWatchersOperations,
  ...taskCustomFieldValuesOperations,
  ...taskTagsOperations,
  ...taskChecklistsOperations,
  ...taskCommentsOperations,
  ...taskAttachmentsOperations,
  ...taskTimeTrackingOperations,
  ...taskRecurrenceOperations,
  ...taskListLinksOperations,
  ...taskBulkOperations,
  ...taskTemplatesOperations,
  ...taskTrashOperations,
  ...taskReadoutsOperations
]
