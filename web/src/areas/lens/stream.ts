/**
 * Lens's streamed answer (`POST /hub/v1/lens/chat/stream`, server-sent
 * events) through the generated client: `step` as each finishes, then
 * `citation`s, `delta`s of the answer and one `final` with the whole reply.
 * Aborting the signal closes the connection, which stops the run.
 */
import { client, data } from "../../api/client.ts"
import type { components } from "../../api/generated/hub.ts"

export type LensReply = components["schemas"]["LensChatReply"]
export type LensCitation = components["schemas"]["LensCitation"]
export type LensStep = components["schemas"]["LensStep"]

export interface LensHandlers {
  readonly step: (step: LensStep) => void
  readonly citation: (citation: LensCitation) => void
  readonly delta: (text: string) => void
}

/** One `event:`/`data:` block of the stream. */
const parseBlock = (block: string): { readonly event: string; readonly data: string } | undefined => {
  let event = "message"
  const lines: Array<string> = []
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) event = line.slice(6).trim()
    else if (line.startsWith("data:")) lines.push(line.slice(5).replace(/^ /, ""))
  }
  return lines.length === 0 ? undefined : { event, data: lines.join("\n") }
}

/** Asks Lens; calls the handlers as the answer streams in and answers the final reply. */
export const askLens = async (
  body: { readonly message: string; readonly workspaceId: string; readonly threadId?: string },
  handlers: LensHandlers,
  signal: AbortSignal
): Promise<LensReply> => {
  const stream = data(await client.POST("/hub/v1/lens/chat/stream", { body, parseAs: "stream", signal }))
  if (!stream) throw new Error("Lens answered without a body")
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  let final: LensReply | undefined
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += value.replace(/\r\n/g, "\n")
    let boundary = buffer.indexOf("\n\n")
    while (boundary >= 0) {
      const parsed = parseBlock(buffer.slice(0, boundary))
      buffer = buffer.slice(boundary + 2)
      boundary = buffer.indexOf("\n\n")
      if (!parsed) continue
      const payload = JSON.parse(parsed.data)
      if (parsed.event === "step") handlers.step(payload as LensStep)
      else if (parsed.event === "citation") handlers.citation(payload as LensCitation)
      else if (parsed.event === "delta") handlers.delta(String((payload as { text: string }).text))
      else if (parsed.event === "final") final = payload as LensReply
      else if (parsed.event === "error") throw new Error(String((payload as { message?: string }).message ?? "Lens failed"))
    }
  }
  if (!final) throw new Error("The answer was cut off; ask again.")
  return final
}
