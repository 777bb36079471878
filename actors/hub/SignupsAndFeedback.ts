/** The beta waitlist and product feedback: records the hub keeps for the people who run it. */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query as sqlQuery } from "../../persistence/Sql.ts"
import { Email, Id, Timestamp, normalizeEmail } from "../Fields.ts"

const query = <R extends object>(text: string, params: ReadonlyArray<unknown>) => Effect.orDie(sqlQuery<R>(text, params))

export const WaitlistEntry = Schema.Struct({
  email: Email,
  position: Schema.Number.annotate({ description: "Place in the queue (1 = first)" }),
  joinedAt: Timestamp,
  alreadyJoined: Schema.Boolean
}).annotate({ identifier: "BetaWaitlistEntry" })

/** Joins once per address: a second join answers the first one's place. */
export const joinWaitlist = (entry: { email: string; name?: string; company?: string; useCase?: string }) =>
  Effect.gen(function* () {
    const email = normalizeEmail(entry.email)
    const inserted = yield* query<{ email: string }>(
      `INSERT INTO hub_beta_waitlist (email, name, company, use_case) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email) DO NOTHING RETURNING email`,
      [email, entry.name ?? null, entry.company ?? null, entry.useCase ?? null]
    )
    const rows = yield* query<{ position: number; joinedAt: string }>(
      `SELECT (SELECT count(*)::int FROM hub_beta_waitlist o WHERE o.position <= w.position) AS position, joined_at AS "joinedAt"
         FROM hub_beta_waitlist w WHERE email = $1`,
      [email]
    )
    return { email, position: rows[0]!.position, joinedAt: rows[0]!.joinedAt, alreadyJoined: inserted.length === 0 }
  })

export const FeedbackCategory = Schema.Literals(["bug", "idea", "praise", "question", "other"])

export const ProductFeedback = Schema.Struct({
  id: Id,
  category: FeedbackCategory,
  message: Schema.String,
  rating: Schema.NullOr(Schema.Number),
  pageUrl: Schema.NullOr(Schema.String),
  createdAt: Timestamp
}).annotate({ identifier: "ProductFeedback" })
export type ProductFeedback = typeof ProductFeedback.Type

export const storeFeedback = (feedback: {
  userId: string
  email: string
  category: typeof FeedbackCategory.Type
  message: string
  rating: number | null
  pageUrl: string | null
}) =>
  Effect.map(
    query<ProductFeedback>(
      `INSERT INTO hub_product_feedback (id, user_id, email, category, message, rating, page_url) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id, category, message, rating, page_url AS "pageUrl", created_at AS "createdAt"`,
      [
        randomUUID(),
        feedback.userId,
        normalizeEmail(feedback.email),
        feedback.category,
        feedback.message,
        feedback.rating,
        feedback.pageUrl
      ]
    ),
    (rows) => rows[0]!
  )
