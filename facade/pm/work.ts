/** pm operations of the work hierarchy and tasks, and their Lite variants (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"
import { commentsLiteOperations } from "./CommentsLite.ts"
import { foldersOperations } from "./Folders.ts"
import { listsOperations } from "./Lists.ts"
import { relationshipsOperations } from "./Relationships.ts"
import { relationshipsLiteOperations } from "./RelationshipsLite.ts"
import { searchLiteOperations } from "./SearchLite.ts"
import { spacesOperations } from "./Spaces.ts"
import { structureLiteOperations } from "./StructureLite.ts"
import { tagsOperations } from "./Tags.ts"
import { taskFeedbackOperations } from "./TaskFeedback.ts"
import { taskFeedbackLiteOperations } from "./TaskFeedbackLite.ts"
import { tasksOperations } from "./Tasks.ts"
import { tasksLiteOperations } from "./TasksLite.ts"

export const pmWorkOperations: ReadonlyArray<AnyOperation> = [
  ...spacesOperations,
  ...foldersOperations,
  ...listsOperations,
  ...tasksOperations,
  ...tagsOperations,
  ...relationshipsOperations,
  ...structureLiteOperations,
  ...tasksLiteOperations,
  ...searchLiteOperations,
  ...commentsLiteOperations,
  ...relationshipsLiteOperations,
  ...taskFeedbackOperations,
  ...taskFeedbackLiteOperations
]
