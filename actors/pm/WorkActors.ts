/**
 * The four actors of the work hierarchy, each the single writer of what it
 * owns: the workspace (its spaces, moves across spaces, relationships, task
 * templates), the space (itself, its folders and their properties, its tags,
 * creating lists), the list (itself, its properties, tasks entering it) and
 * the task (everything about one task).
 *
 * Three of them keep a read model in memory, so the hot reads and every
 * access check are one ask and no SQL while they are warm: the task its task
 * as the API shows it, the list where it sits, the space who may see it.
 */
import { Effect, Schema } from "effect"
import { Id } from "../Fields.ts"
import { query, SqlError } from "../../persistence/Sql.ts"
import { locateList, locateSpace } from "./Locate.ts"
import { propertyCommands } from "./Properties.ts"
import { relationshipCommands } from "./Relationships.ts"
import { tagCommands } from "./SpaceTags.ts"
import { listStructureCommands, spaceStructureCommands, workspaceStructureCommands } from "./StructureCommands.ts"
import { listTaskCommands, taskCommands } from "./TaskCommands.ts"
import { discussionCommands } from "./TaskDiscussion.ts"
import { findTaskById } from "./TaskReads.ts"
import { isTaskNamed } from "./TaskWrites.ts"
import { templateCommands } from "./TaskTemplates.ts"
import { ListNotFound, SpaceNotFound, TaskNotFound } from "./PmErrors.ts"
import { stateRead, workActor } from "./WorkActor.ts"
import { availableFields } from "./CustomFields.ts"
import { effectiveStatuses } from "./Statuses.ts"
import { CustomField, EffectiveStatuses, Task } from "./WorkRecords.ts"

/** A row that is gone (deleted, or never was: its not-found error) is an empty read model, not a failure; SQL errors stay. */
export const orAbsent = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is Exclude<E, SqlError> => !(error instanceof SqlError),
    () => Effect.succeed(null)
  )

export const PmWorkspace = workActor("pmWorkspace", { ...workspaceStructureCommands, ...relationshipCommands, ...templateCommands })

/** Who may see what is in a space: its workspace, privacy and members. */
export const SpaceAccess = Schema.Struct({
  workspaceId: Id,
  isPrivate: Schema.Boolean,
  memberIds: Schema.Array(Schema.String),
  archived: Schema.Boolean
})
export type SpaceAccess = typeof SpaceAccess.Type

const spaceAccess = (spaceId: string) =>
  Effect.gen(function* () {
    const located = yield* orAbsent(locateSpace(spaceId))
    if (located === null) return null
    const members = located.isPrivate
      ? yield* query<{ userId: string }>(`SELECT user_id AS "userId" FROM pm_space_members WHERE space_id = $1`, [spaceId])
      : []
    return {
      workspaceId: located.workspaceId,
      isPrivate: located.isPrivate,
      memberIds: members.map((m) => m.userId),
      archived: located.archived
    }
  })

// Tags and properties never change who may see the space.
const keepsSpaceAccess = new Set([...Object.keys(propertyCommands("space")), ...Object.keys(tagCommands)])

export const PmSpace = workActor(
  "pmSpace",
  { ...spaceStructureCommands, ...propertyCommands("space"), ...tagCommands },
  {
    state: Schema.NullOr(SpaceAccess),
    rebuild: spaceAccess,
    reads: {
      access: stateRead(SpaceAccess, SpaceNotFound)
    },
    afterCommand: (name, _result, state) => (keepsSpaceAccess.has(name) ? state : undefined)
  }
)

/** Where a list sits, and its workflow: the statuses and custom fields that apply to its tasks. */
export const ListPlace = Schema.Struct({
  workspaceId: Id,
  spaceId: Id,
  folderId: Schema.NullOr(Id),
  archived: Schema.Boolean,
  statuses: EffectiveStatuses,
  customFields: Schema.Array(CustomField)
})
export type ListPlace = typeof ListPlace.Type

const listPlace = (listId: string) =>
  Effect.gen(function* () {
    const located = yield* orAbsent(locateList(listId))
    if (located === null) return null
    const chain = { workspaceId: located.workspaceId, spaceId: located.spaceId, folderId: located.folderId, listId }
    const [statuses, customFields] = yield* Effect.all([effectiveStatuses(chain), availableFields(chain)])
    return {
      workspaceId: located.workspaceId,
      spaceId: located.spaceId,
      folderId: located.folderId,
      archived: located.archived,
      statuses,
      customFields
    }
  })

// Tasks entering the list never move it nor change its workflow.
const keepsListPlace = new Set(Object.keys(listTaskCommands))

export const PmList = workActor(
  "pmList",
  { ...listStructureCommands, ...propertyCommands("list"), ...listTaskCommands },
  {
    state: Schema.NullOr(ListPlace),
    rebuild: listPlace,
    reads: {
      locate: stateRead(ListPlace, ListNotFound)
    },
    afterCommand: (name, _result, state) => (keepsListPlace.has(name) ? state : undefined)
  },
  // Creates queued on one list commit together.
  { group: ["createTask"] }
)

export const PmTask = workActor(
  "pmTask",
  { ...taskCommands, ...discussionCommands },
  {
    state: Schema.NullOr(Task),
    rebuild: findTaskById,
    reads: {
      get: stateRead(Task, TaskNotFound)
    },
    // A command that answers with the task itself hands over the new state; anything else rebuilds it.
    afterCommand: (_name, result, _state, id) => (isTaskNamed(id, result) ? result : undefined)
  },
  // Updates queued on one task commit together.
  { group: ["update"] }
)
