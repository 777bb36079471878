/**
 * Mails what the notification outbox holds when it is due, at most once.
 *
 * A pass (i) gives new digest rows their morning (08:00 in the user's
 * profile time zone, after the first of them), (ii) claims due rows with a
 * lease (`lease_owner` is the claim's own token, so two nodes or two passes
 * never hold one row), (iii) decides each against the present: read in the
 * app already (instant only), switched off or to a digest since, no longer
 * visible to the user, no address: settled without mail; (iv) settles the rows
 * and stores their one mail (`hub_mail_outbox`, claimed) in one transaction,
 * only while the lease is still its own; (v) after COMMIT hands the mail to
 * SMTP. A node that dies before (iv) leaves rows whose lease lapses: another
 * pass takes them. One that dies after (iv) leaves a queued mail the hub's
 * mail retry sends. So a notification yields one mail or none, never two.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { query, Sql } from "../../persistence/Sql.ts"
import { deliverStored, storeClaimedMail } from "../hub/Mail.ts"
import { usersByIds, workspacesByIds } from "../identity/IdentityQueries.ts"
import { readNotificationIds } from "../pm/Notifications.ts"
import { settingsOf } from "../pm/UserDirectory.ts"
import { maySee } from "./Access.ts"
import type { Area, NotificationKind } from "./Kinds.ts"
import { type MailEntry, type MailLinks, type RenderedMail, renderDigest, renderInstant } from "./MailRender.ts"
import { nextMorning } from "./Morning.ts"
import { modeOf } from "./Preferences.ts"
import { type UnsubscribeScope, unsubscribeToken } from "./Unsubscribe.ts"

const LEASE_SECONDS = 60
const INSTANT_BATCH = 50
const DIGEST_USERS = 20

/** Where links in e-mails point: ATRIUM_PUBLIC_URL, or this server on localhost. */
export const publicOrigin = () => (process.env.ATRIUM_PUBLIC_URL || `http://localhost:${process.env.PORT || 8080}`).replace(/\/+$/, "")

interface OutboxRow {
  readonly id: string
  readonly userId: string
  readonly workspaceId: string
  readonly area: Area
  readonly kind: NotificationKind
  readonly mode: "instant" | "daily" | "weekly"
  readonly title: string
  readonly itemType: string
  readonly itemId: string
  readonly containerId: string | null
  readonly link: string
  readonly createdAt: string
}

const rowColumns = `id, user_id AS "userId", workspace_id AS "workspaceId", area, kind, mode, title, item_type AS "itemType",
  item_id AS "itemId", container_id AS "containerId", link, created_at AS "createdAt"`

type Outcome = "read" | "no_access" | "off" | "no_address"

/** Digest rows not yet scheduled get the first morning after their oldest one, in the user's time zone. */
const scheduleDigests = Effect.gen(function* () {
  const groups = yield* query<{ userId: string; mode: "daily" | "weekly"; oldest: string }>(
    `SELECT user_id AS "userId", mode, min(created_at) AS oldest FROM notification_outbox
      WHERE state = 'pending' AND due_at IS NULL GROUP BY user_id, mode LIMIT 500`
  )
  if (groups.length === 0) return
  const settings = yield* settingsOf([...new Set(groups.map((g) => g.userId))])
  for (const group of groups) {
    const zone = settings.get(group.userId)?.settings.timezone ?? "UTC"
    const due = nextMorning(Date.parse(String(group.oldest)), zone, group.mode)
    yield* query("UPDATE notification_outbox SET due_at = $3 WHERE user_id = $1 AND mode = $2 AND state = 'pending' AND due_at IS NULL", [
      group.userId,
      group.mode,
      new Date(due).toISOString()
    ])
  }
})

const claimInstants = (now: string, token: string) =>
  query<OutboxRow>(
    `UPDATE notification_outbox SET lease_owner = $2, lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id IN (SELECT id FROM notification_outbox
                    WHERE state = 'pending' AND mode = 'instant' AND due_at <= $1::timestamptz AND (lease_until IS NULL OR lease_until < now())
                    ORDER BY due_at LIMIT ${INSTANT_BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING ${rowColumns}`,
    [now, token]
  )

const digestUsers = (now: string) =>
  query<{ userId: string }>(
    `SELECT DISTINCT user_id AS "userId" FROM notification_outbox
      WHERE state = 'pending' AND mode <> 'instant' AND due_at <= $1::timestamptz AND (lease_until IS NULL OR lease_until < now()) LIMIT ${DIGEST_USERS}`,
    [now]
  )

const claimDigest = (userId: string, now: string, token: string) =>
  query<OutboxRow>(
    `UPDATE notification_outbox SET lease_owner = $3, lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id IN (SELECT id FROM notification_outbox
                    WHERE user_id = $1 AND state = 'pending' AND mode <> 'instant' AND due_at <= $2::timestamptz
                      AND (lease_until IS NULL OR lease_until < now())
                    FOR UPDATE SKIP LOCKED)
      RETURNING ${rowColumns}`,
    [userId, now, token]
  )

const linksFor = (userId: string, workspaceId: string, scope: UnsubscribeScope) =>
  Effect.map(unsubscribeToken(userId, scope), (token): MailLinks => {
    const origin = publicOrigin()
    return {
      origin,
      unsubscribeUrl: `${origin}/hub/v1/notification-delivery/unsubscribe?token=${token}`,
      unsubscribePageUrl: `${origin}/unsubscribe?token=${token}`,
      preferencesUrl: `${origin}/w/${workspaceId}/settings/notifications`
    }
  })

/** Settles the rows (mailed, or why not) and stores their mail, all or nothing, only while the lease is `token`'s. */
const settle = (
  token: string,
  mailed: ReadonlyArray<OutboxRow>,
  skipped: ReadonlyArray<[OutboxRow, Outcome]>,
  mail?: RenderedMail & { to: string; userId: string }
) =>
  Effect.gen(function* () {
    const sql = yield* Sql
    return yield* sql.transaction(
      Effect.gen(function* () {
        const mailId = mail === undefined ? null : yield* storeClaimedMail({ ...mail, kind: "notification" })
        const states = [...mailed.map((row) => [row.id, "mailed"] as const), ...skipped.map(([row, why]) => [row.id, why] as const)]
        const settled = yield* query<{ id: string }>(
          `UPDATE notification_outbox o SET state = s.state, mail_id = CASE WHEN s.state = 'mailed' THEN $3::uuid END,
                  settled_at = now(), lease_until = NULL
             FROM unnest($1::text[], $2::text[]) AS s (id, state)
            WHERE o.id = s.id AND o.state = 'pending' AND o.lease_owner = $4
           RETURNING o.id`,
          [states.map(([id]) => id), states.map(([, state]) => state), mailId, token]
        )
        // Another pass took a row whose lease lapsed: it mails it; this one rolls back and mails nothing.
        if (settled.length !== states.length) return yield* Effect.fail(new LeaseLost())
        return mailId
      })
    )
  }).pipe(Effect.catchTag("LeaseLost", () => Effect.succeed(null)))

class LeaseLost {
  readonly _tag = "LeaseLost"
}

const recipientOf = (userId: string) => Effect.map(usersByIds([userId]), (users) => users.get(userId))

const workspaceNames = (ids: ReadonlyArray<string>) =>
  Effect.map(workspacesByIds([...new Set(ids)]), (found) => new Map([...found].map(([id, ws]) => [id, ws.name] as const)))

const entryOf = (row: OutboxRow, names: ReadonlyMap<string, string>): MailEntry => ({
  workspaceId: row.workspaceId,
  workspaceName: names.get(row.workspaceId) ?? "Atrium",
  area: row.area,
  title: row.title,
  link: row.link,
  createdAt: String(row.createdAt)
})

/** Hands the committed mail to SMTP; a failure stays on its row for the hub's mail retry. */
const handOver = (mailId: string | null) => (mailId === null ? Effect.succeed(0) : Effect.as(deliverStored(mailId), 1))

const sendInstant = (row: OutboxRow, read: ReadonlySet<string>, token: string) =>
  Effect.gen(function* () {
    if (row.area === "pm" && read.has(row.id.slice("pm:".length))) return yield* handOver(yield* settle(token, [], [[row, "read"]]))
    const mode = yield* modeOf(row.userId, row.kind)
    if (mode === "off") return yield* handOver(yield* settle(token, [], [[row, "off"]]))
    if (mode !== "instant") {
      // Switched to a digest since it was written: it waits for their next morning instead.
      yield* query("UPDATE notification_outbox SET mode = $2, due_at = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $3", [
        row.id,
        mode,
        token
      ])
      return 0
    }
    if (!(yield* maySee(row))) return yield* handOver(yield* settle(token, [], [[row, "no_access"]]))
    const user = yield* recipientOf(row.userId)
    if (user === undefined) return yield* handOver(yield* settle(token, [], [[row, "no_address"]]))
    const names = yield* workspaceNames([row.workspaceId])
    const links = yield* linksFor(row.userId, row.workspaceId, row.kind)
    const rendered = renderInstant(entryOf(row, names), links, `e-mails about ${row.kind.replace(/_/g, " ")}`)
    return yield* handOver(yield* settle(token, [row], [], { ...rendered, to: user.email, userId: user.id }))
  })

const sendDigest = (rows: ReadonlyArray<OutboxRow>, token: string) =>
  Effect.gen(function* () {
    const first = rows[0]
    if (first === undefined) return 0
    const user = yield* recipientOf(first.userId)
    if (user === undefined)
      return yield* handOver(
        yield* settle(
          token,
          [],
          rows.map((row) => [row, "no_address"] as [OutboxRow, Outcome])
        )
      )
    const visible = yield* Effect.forEach(rows, (row) => maySee(row), { concurrency: 4 })
    const kept = rows.filter((_, i) => visible[i])
    const hidden = rows.filter((_, i) => !visible[i]).map((row) => [row, "no_access"] as [OutboxRow, Outcome])
    if (kept.length === 0) return yield* handOver(yield* settle(token, [], hidden))
    const names = yield* workspaceNames(kept.map((row) => row.workspaceId))
    const links = yield* linksFor(user.id, first.workspaceId, "all")
    const cadence = kept.some((row) => row.mode === "daily") ? "daily" : "weekly"
    const rendered = renderDigest(
      cadence,
      kept.map((row) => entryOf(row, names)),
      links
    )
    return yield* handOver(yield* settle(token, kept, hidden, { ...rendered, to: user.email, userId: user.id }))
  })

/** When the next pending row is due (or its lease lapses); null when nothing waits. */
export const nextDueAt = Effect.map(
  query<{ next: string | null; unscheduled: boolean }>(
    `SELECT min(GREATEST(due_at, COALESCE(lease_until, due_at))) AS next,
            EXISTS (SELECT 1 FROM notification_outbox WHERE state = 'pending' AND due_at IS NULL) AS unscheduled
       FROM notification_outbox WHERE state = 'pending' AND due_at IS NOT NULL`
  ),
  (rows) => (rows[0]?.unscheduled ? Date.now() : rows[0]?.next ? Date.parse(String(rows[0].next)) : null)
)

/**
 * One pass at `now` (the worker's clock; tests pass the morning they want):
 * the number of mails handed to SMTP. Call again while it returns a full batch.
 */
export const sendDueNotifications = (now: number) =>
  Effect.gen(function* () {
    yield* scheduleDigests
    const at = new Date(now).toISOString()
    const token = randomUUID()
    let mails = 0
    const instants = yield* claimInstants(at, token)
    const read = yield* readNotificationIds(instants.filter((row) => row.area === "pm").map((row) => row.id.slice("pm:".length)))
    const sent = yield* Effect.forEach(instants, (row) => sendInstant(row, read, token), { concurrency: 8 })
    mails += sent.reduce((a, b) => a + b, 0)
    for (const { userId } of yield* digestUsers(at)) {
      const rows = yield* claimDigest(userId, at, token)
      mails += yield* sendDigest(rows, token)
    }
    return { mails, more: instants.length === INSTANT_BATCH }
  })
