/**
 * Each service's in-app notifications as outbox entries: which kind, what
 * the recipient's permission is checked on when it is sent, and where it
 * opens in the web app. Structural types only, so the services that call
 * these (inside their own transactions) import nothing of each other here.
 */
import { feedbackKinds, pmKinds } from "./Kinds.ts"
import type { OutboxEntry } from "./Outbox.ts"

/** A pm notification row (actors/pm/EventLog.ts `NotificationRecord`). */
interface PmNotification {
  readonly id: string
  readonly userId: string
  readonly workspaceId: string
  readonly reason: string
  readonly title: string
  readonly eventSeq: number
  readonly scope: string
  /** Where its event happened (a comment's event names the comment, its path the task). */
  readonly path: { readonly spaceId?: string; readonly listId?: string; readonly taskId?: string }
}

const pmScopes = new Set(["task", "list", "space", "workspace"])

/** The most specific thing the event is about: what is checked and linked to. */
const pmItem = (n: PmNotification): { itemType: OutboxEntry["itemType"]; itemId: string; link: string } =>
  n.path.taskId !== undefined
    ? { itemType: "task", itemId: n.path.taskId, link: `/w/${n.workspaceId}/work/tasks/${n.path.taskId}` }
    : n.path.listId !== undefined
      ? { itemType: "list", itemId: n.path.listId, link: `/w/${n.workspaceId}/work/lists/${n.path.listId}` }
      : n.path.spaceId !== undefined
        ? { itemType: "space", itemId: n.path.spaceId, link: `/w/${n.workspaceId}/work/events/${n.eventSeq}` }
        : { itemType: "workspace", itemId: n.workspaceId, link: `/w/${n.workspaceId}/work/events/${n.eventSeq}` }

export const pmOutboxEntries = (notifications: ReadonlyArray<PmNotification>): ReadonlyArray<OutboxEntry> =>
  notifications.flatMap((n): ReadonlyArray<OutboxEntry> => {
    const kind = pmKinds[n.reason]
    if (kind === undefined || !pmScopes.has(n.scope)) return []
    return [{ sourceId: n.id, userId: n.userId, workspaceId: n.workspaceId, area: "pm", kind, title: n.title, ...pmItem(n) }]
  })

/** A feedback notification row (actors/feedback/BoardLog.ts). */
interface FeedbackNotification {
  readonly id: string
  readonly userId: string
  readonly workspaceId: string
  readonly boardId: string
  readonly requestId: string
  readonly reason: string
  readonly title: string
}

export const feedbackOutboxEntries = (notifications: ReadonlyArray<FeedbackNotification>): ReadonlyArray<OutboxEntry> =>
  notifications.flatMap((n): ReadonlyArray<OutboxEntry> => {
    const kind = feedbackKinds[n.reason]
    if (kind === undefined) return []
    return [
      {
        sourceId: n.id,
        userId: n.userId,
        workspaceId: n.workspaceId,
        area: "feedback",
        kind,
        title: n.title,
        itemType: "request",
        itemId: n.requestId,
        containerId: n.boardId,
        link: `/w/${n.workspaceId}/feedback/${n.boardId}/requests/${n.requestId}`
      }
    ]
  })
