/**
 * The summarizer behind an OpenAI-compatible chat endpoint
 * (`POST {LLM_BASE_URL}/chat/completions`): the same inputs as the local one,
 * written into one prompt (the workspace prompt first, then the personal
 * one, the notes, the template, the transcript), and a JSON answer checked
 * against the version's schema.
 */
import { Effect, Schema } from "effect"
import { transcriptText } from "../Transcript.ts"
import { SummarizerError, type SummarizerShape, type SummaryRequest } from "./Summarizer.ts"
import { actionItemId, type VersionContent } from "./VersionContent.ts"
import { promptText } from "./VersionInputs.ts"

export interface ChatModelConfig {
  readonly baseUrl: string
  readonly apiKey: string
  readonly model: string
}

const Answer = Schema.Struct({
  summary: Schema.String,
  keyPoints: Schema.Array(Schema.String),
  actionItems: Schema.Array(
    Schema.Struct({
      text: Schema.String,
      owner: Schema.optional(Schema.NullOr(Schema.String)),
      dueDate: Schema.optional(Schema.NullOr(Schema.String))
    })
  ),
  enhancedNotes: Schema.String
})
const decodeAnswer = Schema.decodeUnknownEffect(Schema.fromJsonString(Answer))

const Completion = Schema.Struct({ choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.String }) })) })
const decodeCompletion = Schema.decodeUnknownEffect(Completion)

const SYSTEM = [
  "You turn a meeting transcript into JSON with the keys summary (string), keyPoints (array of strings),",
  "actionItems (array of {text, owner?, dueDate? as YYYY-MM-DD}) and enhancedNotes (Markdown).",
  "Follow the instructions first. Expand the user's notes with what was said; lay them out by their template's sections."
].join(" ")

/** The user message: every input of the version, in a fixed order. */
export const chatPrompt = (request: SummaryRequest): string => {
  const parts: Array<string> = []
  const instructions = promptText(request.inputs)
  if (instructions !== "") parts.push(`Instructions:\n${instructions}`)
  if (request.inputs.notes !== null) parts.push(`My notes:\n${request.inputs.notes}`)
  if (request.inputs.template !== null) {
    parts.push(
      `My note template "${request.inputs.template.name}":\n${request.inputs.template.sections.map((s) => `## ${s.title}\n${s.instruction}`).join("\n")}`
    )
  }
  parts.push(`Meeting date: ${request.meetingDate}`)
  parts.push(`Transcript:\n${transcriptText(request.segments)}`)
  return parts.join("\n\n")
}

const fail = (message: string) => new SummarizerError({ message })

export const chatSummarizer = (config: ChatModelConfig): SummarizerShape => ({
  name: `chat:${config.model}`,
  generate: (request) =>
    Effect.gen(function* () {
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          fetch(`${config.baseUrl.replace(/\/$/, "")}/chat/completions`, {
            method: "POST",
            signal,
            headers: { "content-type": "application/json", authorization: `Bearer ${config.apiKey}` },
            body: JSON.stringify({
              model: config.model,
              temperature: 0,
              response_format: { type: "json_object" },
              messages: [
                { role: "system", content: SYSTEM },
                { role: "user", content: chatPrompt(request) }
              ]
            })
          }),
        catch: (error) => fail(`The language model at ${config.baseUrl} could not be reached: ${String(error)}`)
      })
      if (!response.ok) return yield* fail(`The language model answered ${response.status}`)
      const body = yield* Effect.tryPromise({ try: () => response.json(), catch: () => fail("The language model's answer is not JSON") })
      const completion = yield* Effect.mapError(decodeCompletion(body), () => fail("The language model's answer is not a chat completion"))
      const answer = yield* Effect.mapError(decodeAnswer(completion.choices[0].message.content), () =>
        fail("The language model's content does not have the version's fields")
      )
      const content: VersionContent = {
        summary: answer.summary,
        keyPoints: answer.keyPoints,
        actionItems: answer.actionItems.map((item) => ({
          id: actionItemId(item.text),
          text: item.text,
          ...(item.owner ? { owner: item.owner } : {}),
          ...(item.dueDate && /^\d{4}-\d{2}-\d{2}$/.test(item.dueDate) ? { dueDate: item.dueDate } : {})
        })),
        enhancedNotes: answer.enhancedNotes
      }
      return content
    }).pipe(
      Effect.timeoutOrElse({ duration: "120 seconds", orElse: () => Effect.fail(fail("The language model did not answer within 120 s")) })
    )
})

/** The chat model from LLM_BASE_URL / LLM_API_KEY / LLM_MODEL, when all three are set. */
export const chatModelFromEnv = (env: NodeJS.ProcessEnv = process.env): ChatModelConfig | undefined =>
  env.LLM_BASE_URL && env.LLM_API_KEY && env.LLM_MODEL
    ? { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL }
    : undefined
