/** Example values shared by the hub's call operations (made-up ids the fuzz seed replaces with real ones). */
import { exampleWorkspace } from "../../shared/WorkspaceAccess.ts"

export const exampleIds = {
  workspaceId: exampleWorkspace.id,
  recordingId: 1,
  callId: 1,
  callUuid: "5d0c6a1e-2b3f-4c5d-8e9f-a0b1c2d3e4f5",
  userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  actionItemId: "ai_3f2a9c0d1e2b4c5d",
  connectionId: "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f",
  clipId: "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f7a",
  changeId: "e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b",
  listId: "3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b"
}

export const exampleSegments = [
  { speaker: "Alice", startMs: 0, endMs: 4200, text: "Welcome everyone, today we review the launch plan for the mobile app." },
  { speaker: "Bob", startMs: 4300, endMs: 9100, text: "The beta feedback was positive but login errors are still the top complaint." },
  { speaker: "Alice", startMs: 9200, endMs: 14000, text: "I'll send the revised launch timeline by Friday." },
  { speaker: "Carol", startMs: 14100, endMs: 19000, text: "Bob, can you fix the login bug before the release?" }
]

export const exampleAttendee = { email: "bob@example.com", name: "Bob", userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d" }

export const exampleActionItems = [
  {
    id: "ai_3f2a9c0d1e2b4c5d",
    text: "I'll send the revised launch timeline by Friday.",
    owner: "Alice",
    dueDate: "2026-11-27",
    status: "open",
    assigneeEmail: null
  },
  {
    id: "ai_8b7c6d5e4f3a2b1c",
    text: "Bob, can you fix the login bug before the release?",
    owner: "Bob",
    status: "open",
    assigneeEmail: null
  }
]

export const exampleCall = {
  id: exampleIds.callId,
  uuid: exampleIds.callUuid,
  recordingId: exampleIds.recordingId,
  workspaceId: exampleIds.workspaceId,
  name: "Launch review",
  attendees: [exampleAttendee],
  calendarEventId: null,
  status: "ready",
  summary:
    "Welcome everyone, today we review the launch plan for the mobile app. The beta feedback was positive but login errors are still the top complaint.",
  keyPoints: ["Bob: The beta feedback was positive but login errors are still the top complaint."],
  actionItems: exampleActionItems,
  enhancedNotes: '## Notes\n- login errors\n  - Bob: "The beta feedback was positive but login errors are still the top complaint."',
  userNotes: "login errors",
  myPrompt: null,
  notesVersion: { id: "9f86d081884c7d659a2feaa0c55ad015", isDefault: false },
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:05:00.000Z"
}
