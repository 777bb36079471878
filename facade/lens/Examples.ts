/** Example values shared by the Lens operations' documentation (made-up ids the fuzz seed replaces). */
export const exampleIds = {
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  threadId: "5d2f8a61-0c3b-4e7d-9f1a-2b3c4d5e6f70",
  answerId: "8e1d2c3b-4a5f-4b6c-8d7e-9f0a1b2c3d4e",
  proposalId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
  experimentId: "6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d",
  userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
}

export const exampleCitation = {
  n: 1,
  sourceType: "transcript" as const,
  sourceId: "42",
  title: "Launch review",
  snippet: "Bob: Yes. The budget for marketing is still open and we need to decide the pricing tiers.",
  span: { startMs: 13100, endMs: 23000 }
}

export const exampleReply = {
  threadId: exampleIds.threadId,
  answerId: exampleIds.answerId,
  answer: "Carol: Bob, can you fix the login bug before the release? [1]",
  citations: [exampleCitation],
  trace: {
    route: "single" as const,
    routeReason: "The question names one kind of source (meetings)",
    steps: [
      { kind: "route" as const, name: "rules", durationMs: 0.1, detail: "single: The question names one kind of source (meetings)" },
      { kind: "retrieve" as const, name: "transcript, call", durationMs: 4.2, detail: "12 passages readable by the caller" },
      { kind: "grade" as const, name: "bm25", durationMs: 1.3, detail: "3 of 8 ranked passages relevant" },
      { kind: "synthesize" as const, name: "extractive", durationMs: 0.2, detail: "1 citations" }
    ],
    stoppedBecause: "answered" as const
  },
  followUps: ['What else was decided in "Launch review"?'],
  proposals: []
}
