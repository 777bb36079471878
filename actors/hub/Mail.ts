/**
 * Outgoing mail of the hub. Every mail is written to `hub_mail_outbox` first
 * (so it is never lost and its recipient can read it in the app), then handed
 * to the SMTP transport named by SMTP_URL (nodemailer): at once by `sendMail`,
 * or by the background sender for `queueMail` (a caller that must not wait
 * for SMTP, nor show by its reply time whether it mailed anyone). Without
 * SMTP_URL the mail stays in the outbox, marked `unsent`. A refused or failed
 * hand-over is recorded on the row (status `failed`, the error, the attempts)
 * and retried by `retryFailedMail`. Whoever hands a row over first counts its
 * attempt in the same statement that claims it, so no two nodes send it.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { createRequire } from "node:module"
import type { Transporter } from "nodemailer"
import { query, wakeAfterCommit } from "../../persistence/Sql.ts"
import { Email, Id, Timestamp, normalizeEmail } from "../Fields.ts"

export const MailKind = Schema.Literals([
  "password_reset",
  "email_verification",
  "invitation",
  "feedback",
  "test",
  "workspace_migration",
  "notification"
])
export type MailKind = typeof MailKind.Type

export const MailStatus = Schema.Literals(["queued", "sent", "failed", "unsent"]).annotate({
  description: "queued: being handed to SMTP; sent: accepted by the SMTP server; failed: refused (retried); unsent: no SMTP_URL configured"
})

export const Mail = Schema.Struct({
  id: Id,
  to: Email,
  kind: MailKind,
  subject: Schema.String,
  text: Schema.String,
  status: MailStatus,
  attempts: Schema.Number,
  lastError: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  sentAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "OutgoingMail", description: "A mail the hub sent (or is sending) to the caller." })
export type Mail = typeof Mail.Type

export interface OutgoingMail {
  readonly to: string
  readonly userId?: string | null
  readonly kind: MailKind
  readonly subject: string
  readonly text: string
  /** An HTML alternative of `text` (sent as multipart/alternative). */
  readonly html?: string | null
  /** Extra headers, e.g. `List-Unsubscribe`. */
  readonly headers?: Readonly<Record<string, string>> | null
}

const columns = `id, recipient AS "to", kind, subject, body_text AS text, status, attempts, last_error AS "lastError",
  created_at AS "createdAt", sent_at AS "sentAt"`

/** A stored mail as `deliver` needs it. */
interface StoredMail extends OutgoingMail {
  readonly id: string
}
const storedColumns = `id, recipient AS "to", kind, subject, body_text AS text, body_html AS html, headers`

const transports = new Map<string, Transporter>()
const transportFor = (url: string) => {
  let transport = transports.get(url)
  if (transport === undefined) {
    // Loaded with the first transport: most processes never send mail, and nodemailer costs about 60 ms to load.
    const nodemailer = createRequire(import.meta.url)("nodemailer") as typeof import("nodemailer")
    transport = nodemailer.createTransport(url)
    transports.set(url, transport)
  }
  return transport
}

export const mailFrom = () => process.env.MAIL_FROM || "Atrium <no-reply@atrium.local>"

/** Hands one stored mail to SMTP and records the outcome on its row (its claim counted the attempt). */
const deliver = (id: string, mail: OutgoingMail) =>
  Effect.gen(function* () {
    const url = process.env.SMTP_URL
    if (!url) {
      yield* query("UPDATE hub_mail_outbox SET status = 'unsent', last_error = 'SMTP_URL is not configured' WHERE id = $1", [id])
      return
    }
    const outcome = yield* Effect.tryPromise(() =>
      transportFor(url).sendMail({
        from: mailFrom(),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.headers ? { headers: { ...mail.headers } } : {})
      })
    ).pipe(Effect.result)
    if (outcome._tag === "Success") {
      yield* query(`UPDATE hub_mail_outbox SET status = 'sent', last_error = NULL, message_id = $2, sent_at = now() WHERE id = $1`, [
        id,
        String(outcome.success.messageId ?? "")
      ])
    } else {
      const cause = outcome.failure.cause
      const message = cause instanceof Error ? cause.message : String(cause)
      yield* query("UPDATE hub_mail_outbox SET status = 'failed', last_error = $2 WHERE id = $1", [id, message.slice(0, 500)])
    }
  })

/** Writes the mail to the outbox, queued; `claimed` counts the first attempt now (its writer sends it). */
const enqueue = (mail: OutgoingMail, claimed: boolean) =>
  Effect.gen(function* () {
    const id = randomUUID()
    const to = normalizeEmail(mail.to)
    yield* query(
      `INSERT INTO hub_mail_outbox (id, recipient, user_id, kind, subject, body_text, body_html, headers, status, attempts)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 'queued', $9)`,
      [id, to, mail.userId ?? null, mail.kind, mail.subject, mail.text, mail.html ?? null, mail.headers ?? null, claimed ? 1 : 0]
    )
    return { id, to }
  })

/** Stores the mail in the outbox, then sends it; the answer is the stored mail with its delivery outcome. */
export const sendMail = (mail: OutgoingMail) =>
  Effect.gen(function* () {
    const { id, to } = yield* enqueue(mail, true)
    yield* deliver(id, { ...mail, to })
    const rows = yield* query<Mail>(`SELECT ${columns} FROM hub_mail_outbox WHERE id = $1`, [id])
    return rows[0]!
  })

/** The wake-up topic of the background sender (runtime/Wakeup.ts). */
export const mailQueued = "hub.mail.queued"

/** Stores the mail in the outbox for the background sender (woken once it commits); answers its id without waiting for SMTP. */
export const queueMail = (mail: OutgoingMail) =>
  Effect.map(
    Effect.tap(enqueue(mail, false), () => wakeAfterCommit(mailQueued)),
    ({ id }) => id
  )

/**
 * Stores the mail claimed by its writer (inside the caller's transaction, so it commits with what
 * caused it); the writer hands it over with `deliverStored` after COMMIT. A writer that dies in
 * between leaves it queued for `retryFailedMail`.
 */
export const storeClaimedMail = (mail: OutgoingMail) => Effect.map(enqueue(mail, true), ({ id }) => id)

/** Hands a stored mail to SMTP (after `storeClaimedMail`'s transaction committed). */
export const deliverStored = (id: string) =>
  Effect.gen(function* () {
    const rows = yield* query<StoredMail>(`SELECT ${storedColumns} FROM hub_mail_outbox WHERE id = $1 AND status = 'queued'`, [id])
    if (rows[0] !== undefined) yield* deliver(id, rows[0])
  })

/** Hands the queued mails nobody tried yet to SMTP (each claimed first); answers how many. */
export const sendQueuedMail = (batchSize = 20) =>
  Effect.gen(function* () {
    const rows = yield* query<StoredMail>(
      `UPDATE hub_mail_outbox SET attempts = 1
        WHERE id IN (SELECT id FROM hub_mail_outbox WHERE status = 'queued' AND attempts = 0
                      ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING ${storedColumns}`,
      [batchSize]
    )
    for (const row of rows) yield* deliver(row.id, row)
    return rows.length
  })

/** Mails addressed to `email`, newest first. */
export const mailsTo = (email: string, options: { readonly kind?: MailKind; readonly limit: number }) =>
  query<Mail>(
    `SELECT ${columns} FROM hub_mail_outbox WHERE recipient = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY created_at DESC, id LIMIT $3`,
    [normalizeEmail(email), options.kind ?? null, options.limit]
  )

/**
 * Sends again the mails whose hand-over failed (and ones a crash left queued),
 * a few attempts each; returns how many were tried. Each row is claimed with a
 * conditional update first, so nodes sharing the database do not both send it.
 */
export const retryFailedMail = (maxAttempts = 5) =>
  Effect.gen(function* () {
    const rows = yield* query<StoredMail & { status: string; attempts: number }>(
      `SELECT ${storedColumns}, status, attempts FROM hub_mail_outbox
        WHERE status IN ('failed', 'queued') AND attempts < $1 AND created_at < now() - interval '5 seconds' ORDER BY created_at LIMIT 50`,
      [maxAttempts]
    )
    let tried = 0
    for (const row of rows) {
      const claimed = yield* query(
        "UPDATE hub_mail_outbox SET status = 'queued', attempts = attempts + 1 WHERE id = $1 AND status = $2 AND attempts = $3 RETURNING id",
        [row.id, row.status, row.attempts]
      )
      if (claimed.length === 0) continue
      yield* deliver(row.id, row)
      tried++
    }
    return tried
  })
