/** The hub call building blocks without a server: transcript parsers, prompt rules, the local summarizer, token encryption. */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { make as makeKeys } from "../../actors/hub/HubKeys.ts"
import { dueDateOf, summarize } from "../../actors/hub/summarizer/LocalSummarizer.ts"
import { chatPrompt } from "../../actors/hub/summarizer/ChatSummarizer.ts"
import { combineCalendarPrompts, inputKey, inputsOf, isDefaultInputs } from "../../actors/hub/summarizer/VersionInputs.ts"
import { parseTranscript } from "../../actors/hub/Transcript.ts"
import { segments } from "./support/calls.ts"

const parse = (input: Parameters<typeof parseTranscript>[0]) => Effect.runPromise(parseTranscript(input))
const refusal = (input: Parameters<typeof parseTranscript>[0]) => Effect.runPromise(Effect.flip(parseTranscript(input)))

describe("transcript parsers", () => {
  it("reads WebVTT voices, settings after the timing, NOTE blocks and multi-line cues", async () => {
    const parsed = await parse({
      format: "vtt",
      text: "WEBVTT - meeting\n\nNOTE exported\n\nc1\n00:01.000 --> 00:02.500 align:start\n<v.loud Alice>Hello\nall of you</v>\n\n01:00:00.000 --> 01:00:01.000\nBob: Bye\n"
    })
    expect(parsed).toEqual([
      { speaker: "Alice", startMs: 1000, endMs: 2500, text: "Hello all of you" },
      { speaker: "Bob", startMs: 3_600_000, endMs: 3_601_000, text: "Bye" }
    ])
  })

  it("names the broken cue and its problem", async () => {
    const broken = await refusal({ format: "srt", text: "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:00:xx,000\nbad\n" })
    expect(broken.message).toContain("cue 2 has a broken timing line")
    const empty = await refusal({ format: "srt", text: "1\n00:00:01,000 --> 00:00:02,000\n" })
    expect(empty.message).toContain("cue 1 has no text")
    const overlap = await refusal({ format: "srt", text: "1\n00:00:01,000 --> 00:00:05,000\na\n\n2\n00:00:03,000 --> 00:00:06,000\nb\n" })
    expect(overlap.message).toContain("segment 2 overlaps")
    const nothing = await refusal({ format: "vtt", text: "WEBVTT\n" })
    expect(nothing.message).toContain("no cues")
  })
})

describe("version inputs", () => {
  it("combines calendar prompts exactly as the seed says", () => {
    expect(combineCalendarPrompts("S", "O")).toBe("series custom prompt: S\noccurrence custom prompt: O")
    expect(combineCalendarPrompts("S", null)).toBe("S")
    expect(combineCalendarPrompts(null, "O")).toBe("O")
    expect(combineCalendarPrompts(null, null)).toBeNull()
  })

  it("lets the per-call prompt replace the calendar prompt; no personal input is the default", () => {
    const template = { name: "T", sections: [{ title: "A", instruction: "" }] }
    expect(inputsOf("W", { callPrompt: "P", calendarPrompt: "C", notes: null }, null).personalPrompt).toBe("P")
    expect(inputsOf("W", { callPrompt: null, calendarPrompt: "C", notes: null }, null).personalPrompt).toBe("C")
    expect(isDefaultInputs(inputsOf("W", { callPrompt: null, calendarPrompt: null, notes: null }, null))).toBe(true)
    expect(isDefaultInputs(inputsOf(null, { callPrompt: null, calendarPrompt: null, notes: "n" }, null))).toBe(false)
    expect(isDefaultInputs(inputsOf(null, { callPrompt: null, calendarPrompt: null, notes: null }, template))).toBe(false)
    const a = inputsOf("W", { callPrompt: null, calendarPrompt: null, notes: "n" }, template)
    const b = inputsOf("W", { callPrompt: null, calendarPrompt: null, notes: "n" }, { ...template })
    expect(inputKey(a)).toBe(inputKey(b))
    expect(inputKey(a)).not.toBe(inputKey({ ...a, workspacePrompt: null }))
  })

  it("puts every input in the model's prompt, the workspace prompt first", () => {
    const prompt = chatPrompt({
      segments: segments.slice(0, 1),
      inputs: {
        workspacePrompt: "W",
        personalPrompt: "P",
        notes: "my notes",
        template: { name: "T", sections: [{ title: "Risks", instruction: "bugs" }] }
      },
      meetingDate: "2026-11-24"
    })
    expect(prompt).toBe(
      'Instructions:\nW\n\nP\n\nMy notes:\nmy notes\n\nMy note template "T":\n## Risks\nbugs\n\nMeeting date: 2026-11-24\n\nTranscript:\nAlice: Welcome everyone, today we review the launch plan for the mobile app.'
    )
  })
})

describe("local summarizer", () => {
  const request = (inputs: Partial<Parameters<typeof summarize>[0]["inputs"]> = {}) => ({
    segments,
    inputs: { workspacePrompt: null, personalPrompt: null, notes: null, template: null, ...inputs },
    meetingDate: "2026-11-24"
  })

  it("is deterministic and steered by the prompt", () => {
    expect(summarize(request())).toEqual(summarize(request()))
    expect(summarize(request({ personalPrompt: "venue party" })).summary).toContain("venue")
  })

  it("finds commitments, requests and obligations with owners and spoken due dates", () => {
    const items = summarize(request()).actionItems
    expect(items.find((i) => i.text.startsWith("I'll send"))).toMatchObject({ owner: "Alice", dueDate: "2026-11-27" })
    expect(items.find((i) => i.text.startsWith("Bob, can you"))).toMatchObject({ owner: "Bob" })
    expect(items.find((i) => i.text.startsWith("We need to book"))).toMatchObject({ dueDate: "2026-12-01" })
    expect(items.some((i) => i.text.startsWith("Welcome everyone"))).toBe(false)
  })

  it("counts imperatives as action items, not questions", () => {
    const spoken = [
      { speaker: "Ann", startMs: 0, endMs: 4000, text: "Send the invoice to the client! Review the contract today? Thanks all." }
    ]
    const items = summarize({ ...request(), segments: spoken }).actionItems
    expect(items.map((i) => i.text)).toEqual(["Send the invoice to the client!"])
  })

  it("gives each version from a transcript analysed once the same content as from a fresh copy", () => {
    const template = { name: "Party", sections: [{ title: "Venue", instruction: "where it happens" }] }
    const inputs = [{}, { personalPrompt: "venue party" }, { template }, { notes: "- venue\n- budget", template }]
    for (const each of inputs) summarize(request(each))
    for (const each of inputs) {
      const fresh = { ...request(each), segments: segments.map((segment) => ({ ...segment })) }
      expect(summarize(request(each))).toEqual(summarize(fresh))
    }
  })

  it("resolves spoken due dates against the meeting's day", () => {
    expect(dueDateOf("by tomorrow", "2026-11-24")).toBe("2026-11-25")
    expect(dueDateOf("by Monday", "2026-11-24")).toBe("2026-11-30")
    expect(dueDateOf("before end of the month", "2026-11-24")).toBe("2026-11-30")
    expect(dueDateOf("by 2027-01-15", "2026-11-24")).toBe("2027-01-15")
    expect(dueDateOf("no date here", "2026-11-24")).toBeUndefined()
  })

  it("expands notes with the passages they refer to, under the template's sections", () => {
    const notes = summarize(
      request({
        notes: "two pricing tiers\nlogin complaints",
        template: {
          name: "T",
          sections: [
            { title: "Pricing", instruction: "tiers" },
            { title: "Quality", instruction: "login bugs complaints" }
          ]
        }
      })
    ).enhancedNotes
    expect(notes).toBe(
      [
        "## Pricing",
        "- two pricing tiers",
        '  - Dan: "Pricing should stay simple with two tiers, and the enterprise tier needs single sign-on."',
        "",
        "## Quality",
        "- login complaints",
        '  - Bob: "The beta feedback was positive but login errors are still the top complaint from customers."'
      ].join("\n")
    )
  })
})

describe("token encryption", () => {
  it("seals with AES-256-GCM: fresh IV each time, tampering detected", () => {
    const keys = makeKeys(Buffer.alloc(32, 1), Buffer.alloc(32, 2))
    const a = keys.encrypt("secret-token")
    expect(a).not.toContain("secret")
    expect(keys.encrypt("secret-token")).not.toBe(a)
    expect(keys.decrypt(a)).toBe("secret-token")
    const [iv, tag, body] = a.split(".")
    expect(() => keys.decrypt([iv, tag, `${body!.slice(0, -2)}AA`].join("."))).toThrow()
    expect(keys.verify("x", keys.sign("x"))).toBe(true)
    expect(keys.verify("y", keys.sign("x"))).toBe(false)
  })
})
