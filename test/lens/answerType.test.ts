/**
 * Lens answers the asked fact: the answer-type classifier, the sentence that states a fact of that type
 * (chosen near the sentence about the question's topic), two-part questions split into clauses, and the
 * meeting a question names. Small fixtures, one per answer type.
 */
import { describe, expect, it } from "vitest"
import { classify, clausesOf, holds } from "../../actors/lens/AnswerType.ts"
import { dateOfDay, meetingMatches, namedMeeting } from "../../actors/lens/MeetingScope.ts"
import type { Passage } from "../../actors/lens/Passage.ts"
import { terms } from "../../actors/lens/Ranking.ts"
import { synthesize } from "../../actors/lens/Synthesis.ts"

const transcript = (title: string, ...turns: ReadonlyArray<string>): Passage => ({
  key: `transcript:${title}:0`,
  sourceType: "transcript",
  sourceId: title,
  title,
  text: turns.join(" ")
})

const answer = (question: string, ...passages: ReadonlyArray<Passage>) =>
  synthesize(
    passages.map((passage) => ({ passage, score: 1, coverage: 1 })),
    question
  )

const reading = (question: string, people: ReadonlyArray<string> = []) => ({
  known: new Set(terms(question)),
  people: new Set(people.map((p) => p.toLowerCase()))
})

describe("answer types", () => {
  it.each([
    ["When does the new staff frontend engineer start?", "time"],
    ["By when will the parser fix ship?", "time"],
    ["How long did it take to detect the leak?", "duration"],
    ["How much extra does the staging VPC cost per month?", "quantity"],
    ["How many shipments were re-keyed?", "quantity"],
    ["What salary did she accept?", "quantity"],
    ["Who is handling the handover with the landlord?", "person"],
    ["Which customer wants bulk label printing?", "organization"],
    ["Why was the launch moved to April 9?", "reason"],
    ["What caused the outage?", "reason"],
    ["How are we compensating Brightwater for the failed imports?", "action"],
    ["Was production exposed?", "yes_no"],
    ["Which action items from the standup have no task yet?", "list"],
    ["What did Tomasz say about the staging VPC?", "open"]
  ])("%s → %s", (question, type) => {
    expect(classify(question)).toBe(type)
  })

  it("splits a question asking two things into its clauses, and keeps one that asks one thing whole", () => {
    expect(clausesOf("How long did it take to detect the leaked token, and who is assigned the scanning task?")).toEqual([
      "How long did it take to detect the leaked token",
      "who is assigned the scanning task?"
    ])
    expect(clausesOf("Who owns the rollback script and the reconciliation report?")).toEqual([
      "Who owns the rollback script and the reconciliation report?"
    ])
  })

  it("sees a fact of each type in a sentence, but not one the question already states", () => {
    const q = "When was the launch moved to April 9?"
    expect(holds("time", "We moved it to April 9.", reading(q))).toBe(0)
    expect(holds("time", "Marketing shifts the webinar to April 10.", reading(q))).toBe(1)
    expect(holds("time", "Good morning, everyone.", reading(q))).toBe(0)
    expect(holds("duration", "We only noticed it about six hours later.", reading("How long did detection take?"))).toBe(1)
    expect(holds("quantity", "Staging now costs us about 340 dollars more per month.", reading("What does staging cost?"))).toBe(1)
    // A figure about something the question does not name is no answer to it.
    expect(holds("quantity", "The deposit we get back should be around 8,000 euros.", reading("How much did the inspection cost?"))).toBe(0)
    expect(holds("quantity", "He starts on March 3.", reading("What salary did he start with?"))).toBe(0)
    expect(holds("reason", "We're doing it because support costs doubled.", reading("Why?"))).toBe(1)
    expect(holds("person", "I'll handle the landlord.", reading("Who deals with the landlord?"), "Priya")).toBe(1)
    expect(holds("person", "Assigned to Mateo.", reading("Who prepares the checklist?", ["Mateo"]))).toBe(1)
    expect(holds("organization", "Harbor Freight wants bulk label printing.", reading("Which customer wants label printing?"))).toBe(1)
  })
})

describe("sentence selection", () => {
  it("time: the start date said right after the sentence about the hire", () => {
    const s = answer(
      "When does the new staff frontend engineer start?",
      transcript(
        "Frontend hiring sync",
        "Sofia: Mateo Ruiz accepted the staff frontend engineer offer.",
        "Yuki: What did we land on for the start date?",
        "Sofia: He starts on March 3, once his notice period is over."
      )
    )
    expect(s.answer).toContain("March 3")
    expect(s.citations).toHaveLength(1)
  })

  it("person: who answered the question asked in the meeting, not the question", () => {
    const s = answer(
      "Who is handling the handover with the landlord of the old Berlin office?",
      transcript(
        "Berlin office move",
        "Tomasz: Who deals with the landlord of the old Berlin office for the handover?",
        "Priya: I'll handle the landlord; the inspection is already booked."
      )
    )
    expect(s.answer).toContain("Priya")
  })

  it("reason: the sentence giving the reason, next to the one announcing the move", () => {
    const s = answer(
      "Why was the Atlas 3.0 launch moved to April 9?",
      transcript(
        "Atlas launch sync",
        "Priya: We're moving the Atlas 3.0 launch to April 9.",
        "Mateo: That's a three-week slip from the original date.",
        "Priya: The reason is that the payment provider needs two more weeks to certify our checkout flow."
      )
    )
    expect(s.answer).toContain("certify")
  })

  it("quantity: the figure, not the sentence that only shares the topic's words", () => {
    const s = answer(
      "How much extra does the staging VPC cost us per month?",
      transcript(
        "Infrastructure cost review",
        "Tomasz: The staging VPC change is merged.",
        "Tomasz: It adds two NAT gateways, so staging now costs us about 340 dollars more per month."
      )
    )
    expect(s.answer).toContain("340")
  })

  it("duration: how long it took, said in the next sentence", () => {
    const s = answer(
      "How long did it take to notice the leaked staging token?",
      transcript(
        "Security incident review",
        "Kwame: On Friday someone pushed a staging API token to the public docs repository.",
        "Kwame: The scanner flagged it, but we only noticed it about six hours later."
      )
    )
    expect(s.answer).toContain("six hours")
  })

  it("organisation: the customer named, not the sentence about the feature's other askers", () => {
    const s = answer(
      "Which customer wants bulk label printing?",
      transcript(
        "Customer advisory board",
        "Ines: Three customers asked for bulk label printing in the survey.",
        "Priya: Harbor Freight wants bulk label printing more than anything else."
      )
    )
    expect(s.answer).toContain("Harbor Freight")
  })

  it("action: what is being done about it", () => {
    const s = answer(
      "How are we compensating Brightwater for the failed nightly imports?",
      transcript(
        "Brightwater escalation call",
        "Ines: The nightly imports for Brightwater have failed four nights in a row.",
        "Priya: To make up for it, we will credit Brightwater 15 percent of this month's invoice."
      )
    )
    expect(s.answer).toContain("15 percent")
  })

  it("a topic without the asked fact: nothing is cited and the title of what was found is given", () => {
    const s = answer(
      "How many screens does the driver onboarding checklist have?",
      transcript("Tuesday standup", "Sofia: I'll update the onboarding checklist for new drivers.", "Yuki: I'll draft the customs FAQ.")
    )
    expect(s.citations).toEqual([])
    expect(s.notStated).toEqual({ title: "Tuesday standup", type: "quantity" })
  })
})

describe("a named meeting", () => {
  it("finds the meeting a question names, by the words of its title and the day it names", () => {
    expect(namedMeeting("Which action items from the Tuesday standup have no task yet?")).toEqual({ terms: ["standup"], day: "tuesday" })
    expect(namedMeeting("What did we decide in yesterday's retro?")).toEqual({ terms: ["retro"], day: "yesterday" })
    expect(namedMeeting("What was said in the Brightwater call?")).toEqual({ terms: ["brightwater"] })
    expect(namedMeeting("Who is the first sign-on customer mentioned in the SSO planning meeting?")).toEqual({ terms: ["sso", "plann"] })
    expect(namedMeeting("What was said in the call?")).toBeUndefined()
    expect(namedMeeting("How are we compensating Brightwater?")).toBeUndefined()
  })

  it("matches a day by the title or by when the meeting took place, in the asker's time zone", () => {
    // Saturday 2026-11-28 00:30 in Berlin is still Friday 23:30 in UTC.
    const now = new Date("2026-11-27T23:30:00Z")
    expect(dateOfDay("today", now, "Europe/Berlin")).toBe("2026-11-28")
    expect(dateOfDay("today", now, "UTC")).toBe("2026-11-27")
    expect(dateOfDay("yesterday", now, "Europe/Berlin")).toBe("2026-11-27")
    expect(dateOfDay("tuesday", now, "Europe/Berlin")).toBe("2026-11-24")
    const tuesday = { terms: ["standup"], day: { name: "tuesday", date: "2026-11-24", timeZone: "Europe/Berlin" } }
    expect(meetingMatches("Tuesday standup", "2026-11-26T09:00:00Z", tuesday)).toBe(true)
    expect(meetingMatches("Standup", "2026-11-24T08:00:00Z", tuesday)).toBe(true)
    expect(meetingMatches("Standup", "2026-11-25T08:00:00Z", tuesday)).toBe(false)
    expect(meetingMatches("Design review", "2026-11-24T08:00:00Z", tuesday)).toBe(false)
  })
})
