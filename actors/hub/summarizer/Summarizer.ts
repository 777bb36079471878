/**
 * The model port: generates one version's content from the transcript and the
 * version's inputs. Local (wink-nlp, deterministic, no network) by default;
 * an OpenAI-compatible chat endpoint when LLM_BASE_URL, LLM_API_KEY and
 * LLM_MODEL are set.
 */
import { Context, type Effect, Schema } from "effect"
import type { Segment } from "../Transcript.ts"
import type { VersionContent } from "./VersionContent.ts"
import type { VersionInputs } from "./VersionInputs.ts"

export class SummarizerError extends Schema.TaggedError<SummarizerError>()("SummarizerError", {
  message: Schema.String
}) {}

export interface SummaryRequest {
  readonly segments: ReadonlyArray<Segment>
  readonly inputs: VersionInputs
  /** The day the meeting happened (YYYY-MM-DD): spoken due dates ("by Friday") resolve from it. */
  readonly meetingDate: string
}

export interface SummarizerShape {
  readonly name: string
  readonly generate: (request: SummaryRequest) => Effect.Effect<VersionContent, SummarizerError>
}

export class Summarizer extends Context.Service<Summarizer, SummarizerShape>()("atrium/hub/Summarizer") {}
