/**
 * The recording-bot provider's adapter (the shape of the common meeting-bot
 * APIs; `Authorization: Token <key>`), at HUB_BOT_PROVIDER_URL with
 * HUB_BOT_PROVIDER_API_KEY:
 *
 * - `POST {base}/api/v1/bot/` `{meeting_url, bot_name, join_at?, metadata: {workspaceId}}` → `{id}`
 * - `DELETE {base}/api/v1/bot/{id}/` (not joined yet) or `POST {base}/api/v1/bot/{id}/leave_call/`
 * - `GET {base}/api/v1/bot/{id}/transcript/` → `[{speaker, words: [{text, start_time, end_time}]}]` (seconds)
 *
 * The provider reports status changes to `POST /hub/v1/videomeet/bot-events`,
 * signed with HUB_BOT_WEBHOOK_SECRET (BotEvents.ts).
 */
import { Effect } from "effect"
import { reject } from "../../../runtime/Rejection.ts"
import type { Segment } from "../Transcript.ts"
import { vendorJson, vendorRequest } from "./VendorHttp.ts"

const VENDOR = "the meeting-bot provider"

const configured = Effect.suspend(() => {
  const base = (process.env.HUB_BOT_PROVIDER_URL ?? "").replace(/\/+$/, "")
  const key = process.env.HUB_BOT_PROVIDER_API_KEY ?? ""
  return base === "" || key === ""
    ? Effect.fail(reject("conflict", "No meeting-bot provider is configured (HUB_BOT_PROVIDER_URL, HUB_BOT_PROVIDER_API_KEY)"))
    : Effect.succeed({ base, authorization: `Token ${key}` })
})

export interface BotRequest {
  readonly workspaceId: string
  readonly meetingUrl: string
  readonly botName: string
  readonly joinAt: string | null
}

export const createProviderBot = (request: BotRequest) =>
  Effect.gen(function* () {
    const { base, authorization } = yield* configured
    const json = yield* vendorJson({
      vendor: VENDOR,
      method: "POST",
      url: `${base}/api/v1/bot/`,
      authorization,
      body: {
        meeting_url: request.meetingUrl,
        bot_name: request.botName,
        ...(request.joinAt ? { join_at: request.joinAt } : {}),
        metadata: { workspaceId: request.workspaceId }
      }
    })
    if (typeof json.id !== "string" && typeof json.id !== "number")
      return yield* reject("bad_gateway", `${VENDOR} answered without a bot id`)
    return String(json.id)
  })

/** Removes a bot that has not joined, or makes a joined one leave. */
export const stopProviderBot = (providerBotId: string, joined: boolean) =>
  Effect.gen(function* () {
    const { base, authorization } = yield* configured
    const path = `${base}/api/v1/bot/${encodeURIComponent(providerBotId)}/`
    yield* vendorRequest(
      joined
        ? { vendor: VENDOR, method: "POST", url: `${path}leave_call/`, authorization, body: {} }
        : { vendor: VENDOR, method: "DELETE", url: path, authorization }
    )
  })

const seconds = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null)

/** The bot's transcript as segments (one per speaker turn), in order. */
export const fetchBotTranscript = (providerBotId: string) =>
  Effect.gen(function* () {
    const { base, authorization } = yield* configured
    const text = yield* vendorRequest({
      vendor: VENDOR,
      method: "GET",
      url: `${base}/api/v1/bot/${encodeURIComponent(providerBotId)}/transcript/`,
      authorization
    })
    let turns: unknown
    try {
      turns = JSON.parse(text)
    } catch {
      return yield* reject("bad_gateway", `${VENDOR} answered a transcript that is not JSON`)
    }
    if (!Array.isArray(turns)) return yield* reject("bad_gateway", `${VENDOR} answered a transcript that is not a list`)
    const segments: Array<Segment> = []
    for (const turn of turns as ReadonlyArray<Record<string, unknown>>) {
      const words = Array.isArray(turn?.words) ? (turn.words as ReadonlyArray<Record<string, unknown>>) : []
      const timed = words.filter(
        (word) => typeof word?.text === "string" && seconds(word.start_time) !== null && seconds(word.end_time) !== null
      )
      if (timed.length === 0) continue
      segments.push({
        speaker: String(turn.speaker ?? "Speaker").slice(0, 200),
        startMs: Math.round(seconds(timed[0]!.start_time)! * 1000),
        endMs: Math.round(seconds(timed.at(-1)!.end_time)! * 1000),
        text: timed
          .map((word) => String(word.text))
          .join(" ")
          .slice(0, 20_000)
      })
    }
    if (segments.length === 0) return yield* reject("bad_gateway", `${VENDOR} has no transcript for this bot`)
    return segments
  })
