/**
 * The local engine's rules on their own (no server): the router, the
 * specificity weighting of grading, and which sentences synthesis quotes.
 */
import { describe, expect, it } from "vitest"
import type { Passage } from "../../actors/lens/Passage.ts"
import { grade, rank } from "../../actors/lens/Ranking.ts"
import { routeQuestion } from "../../actors/lens/Router.ts"
import { inflects } from "../../actors/lens/Specificity.ts"
import { synthesize } from "../../actors/lens/Synthesis.ts"

const task = (id: string, name: string, rest: string): Passage => ({
  key: `task:${id}`,
  sourceType: "task",
  sourceId: id,
  title: `OPS-${id} ${name}`,
  text: `Task ${name}. Status: to do. ${rest}`
})

const turns = (id: string, title: string, text: string, n = 0): Passage => ({
  key: `transcript:${id}:${n}`,
  sourceType: "transcript",
  sourceId: id,
  title,
  text
})

const page = (id: string, title: string, paragraph: string, n = 0): Passage => ({
  key: `page:${id}:${n}`,
  sourceType: "page",
  sourceId: id,
  title,
  text: `${title}: ${paragraph}`
})

const cite = (passages: ReadonlyArray<Passage>, question: string) =>
  synthesize(
    passages.map((passage) => ({ passage, score: 1, coverage: 1 })),
    question
  ).citations

describe("router", () => {
  it("reads a hyphenated word as one word: the on-call runbook is a page, not a call", () => {
    const decision = routeQuestion("How quickly must the primary on-call acknowledge a page, per the runbook?")
    expect(decision).toMatchObject({ route: "single", sources: ["page"] })
  })

  it("a word that names meetings and other things (review, call, sync) yields to the kind of source named beside it", () => {
    expect(routeQuestion("How fast should pull requests get a review, per the code review guidelines?")).toMatchObject({
      route: "single",
      sources: ["page"]
    })
    expect(routeQuestion("What did we decide in the design review?")).toMatchObject({ route: "single", sources: ["transcript", "call"] })
  })

  it("keeps the three routes: a named meeting, a status question, and a request to act", () => {
    expect(routeQuestion("What did Dana promise in Tuesday's standup?").route).toBe("single")
    expect(routeQuestion("What is the status of the billing migration?").route).toBe("fan_out")
    expect(routeQuestion("Which of last week's action items have no task yet? Create them.").route).toBe("agent")
  })

  it("sends what customers asked for, as a whole, to the calls' customer asks; a question about one ask stays a search", () => {
    for (const question of [
      "What did customers ask for this month?",
      "What have clients been requesting lately?",
      "what did our customers complain about last week"
    ])
      expect(routeQuestion(question)).toMatchObject({ route: "customer_asks", sources: ["transcript", "request"] })
    for (const question of [
      "Which customer wants bulk label printing?",
      "How many customers asked for a Spanish driver app?",
      "In the customer advisory board meeting, what do cold-chain customers keep asking about?"
    ])
      expect(routeQuestion(question).route).not.toBe("customer_asks")
  })
})

describe("grading weighs the question's terms by how specific they are", () => {
  const passages = [
    task("1", "Migrate CI to ARM runners", "Assigned to Bob."),
    task("2", "Renew the office lease", "Assigned to Alice."),
    task("3", "Refresh the sales deck", "Assigned to Carol."),
    task("4", "Publish the job posts", "Assigned to Grace.")
  ]

  it("a passage covering only the common words of a question about something absent is not relevant", () => {
    const ranked = rank(passages, "Who is assigned the task to migrate the mainframe?", 8)
    expect(grade(ranked, 0.42)).toEqual([])
  })

  it("the same passage answers when the question is about what it has", () => {
    const relevant = grade(rank(passages, "Who is assigned the task to migrate CI to ARM runners?", 8), 0.42)
    expect(relevant.map((r) => r.passage.sourceId)).toEqual(["1"])
  })

  it("an inflection matches, a longer word that merely starts alike does not", () => {
    expect(inflects("sign", "signed")).toBe(true)
    expect(inflects("audit", "auditor")).toBe(true)
    expect(inflects("sales", "salesforce")).toBe(false)
  })
})

describe("synthesis quotes the sentence that answers", () => {
  it("not the sentence restating the source's title", () => {
    const [citation] = cite(
      [task("1", "Renew the Lisbon office lease", "The lease ends on October 31; the landlord offered a 3 percent increase.")],
      "When does the Lisbon office lease end, according to the task?"
    )
    expect(citation?.snippet).toMatch(/October 31/)
  })

  it("a task's description is quoted as plain text, not as a speaker's turn", () => {
    const [citation] = cite(
      [task("1", "Write the rollback script", "Assigned to Farid.")],
      "Who is assigned the task to write the rollback script?"
    )
    expect(citation?.snippet).toBe("Assigned to Farid.")
  })

  it("a second quote from the same source only when it says something asked about", () => {
    const citations = cite(
      [
        page("p", "Release process", "Releases ship on Tuesdays and Thursdays.", 0),
        page("p", "Release process", "A release needs two approvals.", 1)
      ],
      "On which days do releases ship, according to the release process page?"
    )
    expect(citations.map((c) => c.snippet)).toEqual(["Release process: Releases ship on Tuesdays and Thursdays."])
  })

  it("when the question names a speaker, what others said is left out", () => {
    const citations = cite(
      [
        turns("m", "Design system sync", "Grace: Dark mode colors fail contrast checks on the sidebar.", 0),
        turns("m", "Design system sync", "Dana: I'll fix the sidebar contrast in dark mode.", 1)
      ],
      "What did Grace say about dark mode in the design system sync?"
    )
    expect(citations.map((c) => c.snippet)).toEqual(["Grace: Dark mode colors fail contrast checks on the sidebar."])
  })

  it("a question about a promise is answered by the speaker's action item", () => {
    const item: Passage = {
      key: "call:m:action:1",
      sourceType: "call",
      sourceId: "m",
      title: "Tuesday standup: action item",
      text: "Action item for Dana: I'll ship the password reset fix to staging by Thursday.",
      actionItem: { text: "I'll ship the password reset fix to staging by Thursday.", owner: "Dana" }
    }
    const citations = cite(
      [
        turns("m", "Tuesday standup", "Dana: Yesterday I paired with Erin on the flaky checkout tests.", 0),
        item,
        {
          ...item,
          key: "call:m:action:2",
          text: "Action item for Bob: I'll clean up the disk.",
          actionItem: { text: "I'll clean up the disk.", owner: "Bob" }
        }
      ],
      "What did Dana promise in Tuesday's standup?"
    )
    expect(citations.map((c) => c.snippet)).toEqual(["Action item for Dana: I'll ship the password reset fix to staging by Thursday."])
  })

  it("the same sentence from a transcript and from call notes is quoted once", () => {
    const citations = cite(
      [
        turns("m", "Checkout outage postmortem", "Farid: The root cause was an expired TLS certificate."),
        {
          key: "call:m:notes",
          sourceType: "call",
          sourceId: "m",
          title: "Checkout outage postmortem",
          text: "The root cause was an expired TLS certificate."
        }
      ],
      "What was the root cause of the checkout outage?"
    )
    expect(citations).toHaveLength(1)
  })
})
