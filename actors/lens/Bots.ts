/**
 * Lens bots on team-chat (Chatapp) and team-meeting chat (Workchat)
 * connections: the bot actor (signing secret sealed at rest, the user Lens
 * acts as), signature checks of inbound events, and the vendor adapter that
 * replies in the channel or meeting thread at the connection's base URL.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Effect, Schema } from "effect"
import { isoTimestampSql, query, Sql } from "../../persistence/Sql.ts"
import { Actor } from "../../runtime/Actor.ts"
import { clientIn } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { get, tokenOf } from "../hub/connections/Connections.ts"
import { HubKeys } from "../hub/HubKeys.ts"
import { Id, now, Timestamp } from "../Fields.ts"
import { LensBotNotFound } from "./LensErrors.ts"

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

/** A bot with its signing secret, sealed (HubKeys): the actor never sees it in clear. */
const Installed = Schema.Struct({ bot: Bot, sealed: Schema.String })
type Installed = typeof Installed.Type

const load = (connectionId: string) =>
  Effect.map(
    query<Bot & { sealed: string }>(`SELECT ${COLUMNS}, secret_ciphertext AS sealed FROM lens_bots WHERE connection_id = $1`, [
      connectionId
    ]),
    ([row]): Installed | null => (row === undefined ? null : { bot: (({ sealed: _s, ...bot }) => bot)(row), sealed: row.sealed })
  )

const noBot = () => new LensBotNotFound()

/**
 * The Lens bot actor (kind "lensBot", one per connection id): the single
 * writer of the connection's bot, held in memory (rebuilt from its row) so
 * every inbound event is verified without a query.
 */
export const LensBot = Actor<Installed | null>()({
  kind: "lensBot",
  state: Schema.NullOr(Installed),
  initial: () => null,
  rebuild: (connectionId) => load(connectionId),
  readOnly: ["view", "credentials"],
  messages: {
    install: {
      payload: Schema.Struct({ workspaceId: Id, surface: Surface, sealed: Schema.String, actAs: Id }),
      success: Bot,
      error: Schema.Never
    },
    view: { payload: Schema.Struct({}), success: Bot, error: LensBotNotFound },
    /** The bot with its sealed secret when it serves `surface`; null otherwise (the event is refused). */
    credentials: { payload: Schema.Struct({ surface: Surface }), success: Schema.NullOr(Installed), error: Schema.Never }
  },
  handlers: {
    install: ({ workspaceId, surface, sealed, actAs }, ctx) =>
      Effect.gen(function* () {
        const at = now()
        const bot: Bot = {
          connectionId: ctx.address.id,
          workspaceId,
          surface,
          actAs,
          createdAt: ctx.state?.bot.createdAt ?? at,
          updatedAt: at
        }
        yield* Effect.orDie(
          Sql.use((sql) =>
            sql.query(
              `INSERT INTO lens_bots (connection_id, workspace_id, surface, secret_ciphertext, act_as, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT (connection_id) DO UPDATE SET surface = EXCLUDED.surface, secret_ciphertext = EXCLUDED.secret_ciphertext, act_as = EXCLUDED.act_as, updated_at = EXCLUDED.updated_at`,
              [bot.connectionId, workspaceId, surface, sealed, actAs, bot.createdAt, at]
            )
          )
        )
        ctx.setState({ bot, sealed })
        return bot
      }),
    view: (_, ctx) => (ctx.state === null ? Effect.fail(noBot()) : Effect.succeed(ctx.state.bot)),
    credentials: ({ surface }, ctx) => Effect.succeed(ctx.state !== null && ctx.state.bot.surface === surface ? ctx.state : null)
  }
})

const askBot = clientIn(LensBot)

export const installBot = (workspaceId: string, connectionId: string, surface: Surface, secret: string, actAs: string) =>
  Effect.gen(function* () {
    const connection = yield* get(workspaceId, connectionId)
    if (connection.vendor !== "chatapp") {
      return yield* reject("invalid", "Lens bots run on a team-chat connection", [
        { path: "path.connectionId", message: `a ${connection.vendor} connection` }
      ])
    }
    return yield* askBot(connectionId).install({ workspaceId, surface, sealed: (yield* HubKeys).encrypt(secret), actAs })
  })

/** The workspace's bot on `connectionId` (another workspace's answers 404). */
export const botOf = (workspaceId: string, connectionId: string) =>
  Effect.flatMap(askBot(connectionId).view({}), (bot) => (bot.workspaceId === workspaceId ? Effect.succeed(bot) : Effect.fail(noBot())))

const MAX_SKEW_SECONDS = 300

/** `v0=hex(HMAC-SHA256(secret, "v0:{timestamp}:{raw body}"))`, with a timestamp within five minutes (replays refused). */
export const signatureOf = (secret: string, timestamp: string, body: Uint8Array | string) =>
  `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:`).update(body).digest("hex")}`

export const verifySender = (connectionId: string, surface: Surface, headers: Readonly<Record<string, string>>, body: Uint8Array) =>
  Effect.gen(function* () {
    const refused = reject("unauthorized", "The event's signature does not verify with this connection's signing secret")
    const installed = yield* askBot(connectionId).credentials({ surface })
    if (installed === null) return yield* refused
    const timestamp = headers["x-signature-timestamp"] ?? ""
    const signature = headers["x-signature"] ?? ""
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return yield* refused
    const expected = Buffer.from(signatureOf((yield* HubKeys).decrypt(installed.sealed), timestamp, body))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return yield* refused
    return installed.bot
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
