/**
 * Building the ChangeLog entries of the work hierarchy: one helper per scope,
 * so every change names its workspace, its ancestors and who made it, and
 * notifications never go to the person who acted.
 */
import type { Change, ChangeScope, Notify } from "./ChangeLog.ts"

export interface Where {
  readonly workspaceId: string
  readonly spaceId?: string | null
  readonly listId?: string | null
  readonly taskId?: string | null
}

const pathOf = (where: Where): Change["path"] => ({
  ...(where.spaceId ? { spaceId: where.spaceId } : {}),
  ...(where.listId ? { listId: where.listId } : {}),
  ...(where.taskId ? { taskId: where.taskId } : {})
})

const scopeOf = (where: Where): ChangeScope => (where.taskId ? "task" : where.listId ? "list" : where.spaceId ? "space" : "workspace")

/** A change at the narrowest scope `where` names. */
export const change = (
  where: Where,
  type: string,
  entityId: string,
  data: Record<string, unknown>,
  actorId: string,
  notify: ReadonlyArray<Notify> = []
): Change => ({
  workspaceId: where.workspaceId,
  scope: scopeOf(where),
  entityId,
  path: pathOf(where),
  type,
  data,
  actorId,
  ...(notify.length > 0 ? { notify } : {})
})

/** Notifications for `userIds` (deduplicated), never for the actor. */
export const notifyUsers = (userIds: Iterable<string>, reason: Notify["reason"], title: string, actorId: string): ReadonlyArray<Notify> =>
  [...new Set(userIds)].filter((userId) => userId !== actorId).map((userId) => ({ userId, reason, title }))
