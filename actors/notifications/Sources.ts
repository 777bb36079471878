/**
 * Each service's notifications as outbox entries (pm's and feedback's from their in-app rows; the wiki's and
 * the hub's from the writes that cause them): which kind, what
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

/** A wiki page comment as written (actors/wiki/WikiPage.ts): whom it mentions, whose thread it answers. */
interface WikiComment {
  readonly id: string
  readonly pageId: string
  readonly spaceId: string
  readonly workspaceId: string
  readonly pageTitle: string
  readonly authorId: string
  readonly mentions: ReadonlyArray<string>
  /** The author of the thread's root, for a reply. */
  readonly threadAuthorId: string | null
}

const wikiPage = (workspaceId: string, spaceId: string, pageId: string) => ({
  workspaceId,
  area: "wiki" as const,
  itemType: "page" as const,
  itemId: pageId,
  containerId: spaceId,
  link: `/w/${workspaceId}/wiki/${spaceId}/${pageId}`
})

const quoted = (title: string) => `"${title.trim() === "" ? "Untitled" : title}"`

/**
 * Who a comment notifies: each user it mentions (once per comment, an edit that adds a mention notifies the
 * newcomer only), and the thread's author when someone else replies (unless mentioned already). Never its author.
 */
export const wikiCommentEntries = (comment: WikiComment): ReadonlyArray<OutboxEntry> => {
  const page = wikiPage(comment.workspaceId, comment.spaceId, comment.pageId)
  const mentioned = [...new Set(comment.mentions)].filter((userId) => userId !== comment.authorId)
  const entries: Array<OutboxEntry> = mentioned.map((userId) => ({
    ...page,
    sourceId: `mention:${comment.id}:${userId}`,
    userId,
    kind: "mention",
    title: `You were mentioned in a comment on ${quoted(comment.pageTitle)}`
  }))
  const threadAuthor = comment.threadAuthorId
  if (threadAuthor !== null && threadAuthor !== comment.authorId && !mentioned.includes(threadAuthor))
    entries.push({
      ...page,
      sourceId: `reply:${comment.id}`,
      userId: threadAuthor,
      kind: "comment",
      title: `New reply to your comment on ${quoted(comment.pageTitle)}`
    })
  return entries
}

/** A restricted page shared with one user (a permission entry naming them), once per entry. */
export const wikiShareEntry = (share: {
  readonly entryId: string
  readonly userId: string
  readonly by: string
  readonly workspaceId: string
  readonly spaceId: string
  readonly pageId: string
  readonly pageTitle: string
  readonly access: string
}): ReadonlyArray<OutboxEntry> =>
  share.userId === share.by
    ? []
    : [
        {
          ...wikiPage(share.workspaceId, share.spaceId, share.pageId),
          sourceId: `shared:${share.entryId}`,
          userId: share.userId,
          kind: "shared",
          title: `The page ${quoted(share.pageTitle)} was shared with you (${share.access})`
        }
      ]

/** A processed call (actors/hub/CallActor.ts). */
interface HubCallRef {
  readonly workspaceId: string
  readonly recordingId: number
  readonly callId: number
  readonly name: string
}

const hubCall = (call: HubCallRef) => ({
  workspaceId: call.workspaceId,
  area: "hub" as const,
  itemType: "recording" as const,
  itemId: String(call.recordingId),
  containerId: null,
  link: `/w/${call.workspaceId}/meetings/${call.callId}`
})

/** The call's notes are ready: each of its people with an account, once per call. */
export const hubNotesReadyEntries = (call: HubCallRef, userIds: ReadonlyArray<string>): ReadonlyArray<OutboxEntry> =>
  [...new Set(userIds)].map((userId) => ({
    ...hubCall(call),
    sourceId: `notes:${call.recordingId}:${userId}`,
    userId,
    kind: "notes_ready",
    title: `Your notes of "${call.name}" are ready`
  }))

/** An action item of a call assigned to a user (not by themselves), once per item and user. */
export const hubActionAssignedEntries = (
  call: HubCallRef,
  item: { readonly id: string; readonly text: string },
  userId: string,
  by: string
): ReadonlyArray<OutboxEntry> =>
  userId === by
    ? []
    : [
        {
          ...hubCall(call),
          sourceId: `action:${call.recordingId}:${item.id}:${userId}`,
          userId,
          kind: "assignment",
          title: `Action item from "${call.name}" assigned to you: ${item.text}`
        }
      ]
