/**
 * The LLM port: with LLM_BASE_URL, LLM_API_KEY and LLM_MODEL set, Lens asks
 * an OpenAI-compatible `/chat/completions` to route, grade and synthesize
 * (each call metered by its tokens). Without them Lens stays local.
 */
import { Effect } from "effect"
import { reject } from "../../runtime/Rejection.ts"

export interface ModelConfig {
  readonly baseUrl: string
  readonly apiKey: string
  readonly model: string
}

export const modelConfig = (): ModelConfig | undefined => {
  const { LLM_BASE_URL: baseUrl, LLM_API_KEY: apiKey, LLM_MODEL: model } = process.env
  return baseUrl && apiKey && model ? { baseUrl, apiKey, model } : undefined
}

export interface ModelReply {
  readonly text: string
  readonly promptTokens: number
  readonly completionTokens: number
}

/** One chat completion at temperature 0: the system prompt, then the user's content. */
export const complete = (config: ModelConfig, system: string, user: string) =>
  Effect.gen(function* () {
    // The run's interruption (its client went away) aborts the request.
    const response = yield* Effect.tryPromise((signal) =>
      fetch(`${config.baseUrl.replace(/\/$/, "")}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${config.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: config.model,
          temperature: 0,
          messages: [
            { role: "system", content: system },
            { role: "user", content: user }
          ]
        }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(60_000)])
      })
    ).pipe(Effect.mapError(() => reject("bad_gateway", "The language model could not be reached")))
    if (!response.ok) return yield* reject("bad_gateway", `The language model refused the request (${response.status})`)
    const body = (yield* Effect.tryPromise(() => response.json()).pipe(
      Effect.mapError(() => reject("bad_gateway", "The language model answered no JSON"))
    )) as {
      choices?: Array<{ message?: { content?: string } }>
      usage?: { prompt_tokens?: number; completion_tokens?: number }
    }
    const text = body.choices?.[0]?.message?.content
    if (typeof text !== "string" || text.trim() === "") return yield* reject("bad_gateway", "The language model answered nothing")
    return {
      text: text.trim(),
      promptTokens: body.usage?.prompt_tokens ?? 0,
      completionTokens: body.usage?.completion_tokens ?? 0
    } satisfies ModelReply
  })

/** A reply's JSON (bare, or in a Markdown code fence as some models wrap it); undefined when it is none. */
export const jsonOf = (text: string): unknown => {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text.trim())
  try {
    return JSON.parse(fenced ? fenced[1]! : text)
  } catch {
    return undefined
  }
}
