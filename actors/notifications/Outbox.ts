/**
 * The notification outbox: every in-app notification that may become an
 * e-mail is written here by its service, in the transaction that created it,
 * so a notification is never mailed for a write that rolled back and never
 * lost to a crash after its commit. The row's id is the service's own
 * notification id (prefixed by the area), so it is written once. Its mode is
 * the recipient's choice for the kind at that moment (`off`: no row); an
 * instant row is due after a short grace period (a user who reads it in the
 * app by then is not mailed), a digest row gets its morning from the sender.
 * One statement, so it adds one round trip to the writer's transaction; the
 * sender is woken once that transaction commits.
 */
import { Effect } from "effect"
import { query, wakeAfterCommit } from "../../persistence/Sql.ts"
import { type Area, defaultModes, type NotificationKind } from "./Kinds.ts"

export interface OutboxEntry {
  /** The service's own notification id (read back to see whether it was read in the app). */
  readonly sourceId: string
  readonly userId: string
  readonly workspaceId: string
  readonly area: Area
  readonly kind: NotificationKind
  readonly title: string
  /** What permission is checked on at send time. */
  readonly itemType: "task" | "list" | "space" | "workspace" | "request" | "board" | "page" | "recording"
  readonly itemId: string
  /** The request's board, the page's space. */
  readonly containerId?: string | null
  /** Path of the item in the web app (`/w/<workspace>/…`). */
  readonly link: string
}

/** Seconds an instant notification waits before it is mailed (read in the app by then: not mailed). */
export const instantDelaySeconds = () => {
  const value = Number(process.env.NOTIFY_INSTANT_DELAY_SECONDS)
  return Number.isFinite(value) && value >= 0 && process.env.NOTIFY_INSTANT_DELAY_SECONDS !== "" ? value : 60
}

/** The sender's wake-up topic (runtime/Wakeup.ts): signalled once a write that enqueued notifications commits. */
export const notificationsQueued = "notifications.queued"

export const outboxId = (area: Area, sourceId: string) => `${area}:${sourceId}`

export const enqueueNotifications = (entries: ReadonlyArray<OutboxEntry>) =>
  entries.length === 0
    ? Effect.void
    : Effect.asVoid(
        query(
          `INSERT INTO notification_outbox (id, user_id, workspace_id, area, kind, mode, title, item_type, item_id, container_id, link, due_at)
           SELECT e.id, e.user_id, e.workspace_id, e.area, e.kind, m.mode, e.title, e.item_type, e.item_id, e.container_id, e.link,
                  CASE WHEN m.mode = 'instant' THEN now() + make_interval(secs => $12) END
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
                  AS e (id, user_id, workspace_id, area, kind, default_mode, title, item_type, item_id, container_id, link)
             LEFT JOIN notification_delivery_preferences p ON p.user_id = e.user_id AND p.kind = e.kind
            CROSS JOIN LATERAL (SELECT COALESCE(p.mode, e.default_mode) AS mode) m
            WHERE m.mode <> 'off'
           ON CONFLICT (id) DO NOTHING`,
          [
            entries.map((e) => outboxId(e.area, e.sourceId)),
            entries.map((e) => e.userId),
            entries.map((e) => e.workspaceId),
            entries.map((e) => e.area),
            entries.map((e) => e.kind),
            entries.map((e) => defaultModes[e.kind]),
            entries.map((e) => e.title.slice(0, 500)),
            entries.map((e) => e.itemType),
            entries.map((e) => e.itemId),
            entries.map((e) => e.containerId ?? null),
            entries.map((e) => e.link),
            instantDelaySeconds()
          ]
        ).pipe(Effect.tap(() => wakeAfterCommit(notificationsQueued)))
      )
