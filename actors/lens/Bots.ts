/**
 * Lens bots on team-chat (Chatapp) and team-meeting chat (Workchat)
 * connections: the install (signing secret sealed at rest, the user Lens
 * acts as), signature checks of inbound events, and the vendor adapter that
 * replies in the channel or meeting thread at the connection's base URL.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Effect, Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { get, tokenOf } from "../hub/connections/Connections.ts"
import { HubKeys } from "../hub/HubKeys.ts"
import { Id, Timestamp } from "../Fields.ts"

export const Surface = Schema.Literals(["chatapp", "workchat"])
export type Surface = typeof Surface.Type

export const Bot = Schema.Struct({
  connectionId: Id,
  workspaceId: Id,
  surface: Surface,
  actAs: Id.annotate({ description: "The member whose permissions Lens answers with" }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "LensBot" })
export type Bot = typeof Bot.Type

const COLUMNS = `connection_id AS "connectionId", workspace_id AS "workspaceId", surface, act_as AS "actAs", ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

export const installBot = (workspaceId: string, connectionId: string, surface: Surface, secret: string, actAs: string) =>
  Effect.gen(function* () {
    const connection = yield* get(workspaceId, connectionId)
    if (connection.vendor !== "chatapp") {
      return yield* reject("invalid", "Lens bots run on a team-chat connection", [
        { path: "path.connectionId", message: `a ${connection.vendor} connection` }
      ])
    }
    const keys = yield* HubKeys
    yield* query(
      `INSERT INTO lens_bots (connection_id, workspace_id, surface, secret_ciphertext, act_as) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (connection_id) DO UPDATE SET surface = EXCLUDED.surface, secret_ciphertext = EXCLUDED.secret_ciphertext, act_as = EXCLUDED.act_as, updated_at = now()`,
      [connectionId, workspaceId, surface, keys.encrypt(secret), actAs]
    )
    return yield* botOf(connectionId)
  })

export const botOf = (connectionId: string) =>
  Effect.flatMap(query<Bot>(`SELECT ${COLUMNS} FROM lens_bots WHERE connection_id = $1`, [connectionId]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(reject("not_found", "No Lens bot on this connection"))
  )

export const removeBot = (workspaceId: string, connectionId: string) =>
  Effect.flatMap(
    query<{ id: string }>("DELETE FROM lens_bots WHERE connection_id = $1 AND workspace_id = $2 RETURNING connection_id AS id", [
      connectionId,
      workspaceId
    ]),
    (rows) => (rows.length > 0 ? Effect.void : Effect.fail(reject("not_found", "No Lens bot on this connection")))
  )

const MAX_SKEW_SECONDS = 300

/** `v0=hex(HMAC-SHA256(secret, "v0:{timestamp}:{raw body}"))`, with a timestamp within five minutes (replays refused). */
export const signatureOf = (secret: string, timestamp: string, body: Uint8Array | string) =>
  `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:`).update(body).digest("hex")}`

export const verifySender = (connectionId: string, surface: Surface, headers: Readonly<Record<string, string>>, body: Uint8Array) =>
  Effect.gen(function* () {
    const refused = reject("unauthorized", "The event's signature does not verify with this connection's signing secret")
    const [row] = yield* query<{ sealed: string; surface: string }>(
      "SELECT secret_ciphertext AS sealed, surface FROM lens_bots WHERE connection_id = $1",
      [connectionId]
    )
    if (row === undefined || row.surface !== surface) return yield* refused
    const timestamp = headers["x-signature-timestamp"] ?? ""
    const signature = headers["x-signature"] ?? ""
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return yield* refused
    const expected = Buffer.from(signatureOf((yield* HubKeys).decrypt(row.sealed), timestamp, body))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return yield* refused
    return yield* botOf(connectionId)
  })

/** Replies through the vendor's API at the connection's base URL, with the connection's token. */
export const replyInThread = (bot: Bot, target: { readonly channel: string; readonly thread: string }, text: string) =>
  Effect.gen(function* () {
    const connection = yield* get(bot.workspaceId, bot.connectionId)
    const token = yield* tokenOf(bot.connectionId)
    const base = connection.baseUrl.replace(/\/$/, "")
    const [url, payload] =
      bot.surface === "chatapp"
        ? [`${base}/chat.postMessage`, { channel: target.channel, thread_ts: target.thread, text }]
        : [
            `${base}/chats/${encodeURIComponent(target.channel)}/messages`,
            { replyToId: target.thread, body: { contentType: "text", content: text } }
          ]
    const response = yield* Effect.tryPromise(() =>
      fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(10_000)
      })
    ).pipe(Effect.mapError(() => reject("bad_gateway", `The ${bot.surface} service could not be reached`)))
    if (!response.ok) return yield* reject("bad_gateway", `The ${bot.surface} service refused the reply (${response.status})`)
  })
