/**
 * WebSocket tickets: a browser cannot send an Authorization header with a
 * WebSocket upgrade, so it first trades its JWT or API key for a ticket (REST,
 * `createWebSocketTicket`) and opens the socket with it. A ticket is random,
 * single-use, valid for 30 seconds, and bound to the caller and one workspace.
 * Only its hash is stored, in PostgreSQL (shared by all nodes: issued on one,
 * used on another); using it deletes it in the same statement, so two
 * concurrent upgrades with one ticket cannot both succeed.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { query } from "../persistence/Sql.ts"

export const TICKET_TTL_SECONDS = 30

export interface TicketClaims {
  readonly userId: string
  readonly workspaceId: string
  /** Set when the ticket was issued to an API key. */
  readonly apiKeyId: string | null
}

const hashOf = (ticket: string) => createHash("sha256").update(ticket).digest("base64url")

/** Tickets look like `wst_<43 base64url chars>`; anything else is refused without a query. */
export const isTicketShaped = (value: string) => /^wst_[A-Za-z0-9_-]{43}$/.test(value)

export const issueTicket = (claims: TicketClaims) =>
  Effect.gen(function* () {
    const ticket = `wst_${randomBytes(32).toString("base64url")}`
    // Expired tickets are swept on issue: the table stays as small as the last few minutes' upgrades.
    yield* query("DELETE FROM pm_ws_tickets WHERE expires_at < now() - interval '1 minute'")
    const rows = yield* query<{ expires_at: string }>(
      `INSERT INTO pm_ws_tickets (ticket_hash, user_id, workspace_id, api_key_id, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING expires_at`,
      [hashOf(ticket), claims.userId, claims.workspaceId, claims.apiKeyId, TICKET_TTL_SECONDS]
    )
    return { ticket, expiresAt: rows[0]!.expires_at }
  })

/** The ticket's claims, consuming it; `undefined` when unknown, already used or expired. */
export const consumeTicket = (ticket: string) =>
  Effect.gen(function* () {
    if (!isTicketShaped(ticket)) return undefined
    const rows = yield* query<{ user_id: string; workspace_id: string; api_key_id: string | null; live: boolean }>(
      "DELETE FROM pm_ws_tickets WHERE ticket_hash = $1 RETURNING user_id, workspace_id, api_key_id, expires_at > now() AS live",
      [hashOf(ticket)]
    )
    const row = rows[0]
    if (row === undefined || !row.live) return undefined
    return { userId: row.user_id, workspaceId: row.workspace_id, apiKeyId: row.api_key_id } satisfies TicketClaims
  })
