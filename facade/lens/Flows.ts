/** The AI flows the hub runs (AiFlows.ts), each version kept so a caller can pin one. */

export interface Flow {
  readonly name: string
  readonly version: number
  readonly description: string
  readonly output: ReadonlyArray<"summary" | "keyPoints" | "actionItems" | "enhancedNotes">
}

export const flows: ReadonlyArray<Flow> = [
  {
    name: "meeting-summary",
    version: 1,
    description: "A summary and key points of a meeting transcript",
    output: ["summary", "keyPoints"]
  },
  {
    name: "action-items",
    version: 1,
    description: "Action items with owners and due dates resolved from what was said",
    output: ["actionItems"]
  },
  { name: "enhanced-notes", version: 1, description: "Structured notes following the caller's prompt", output: ["enhancedNotes"] }
]
