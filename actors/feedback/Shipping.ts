/** Provisional: replaced once the Board actor exists. */
import { Effect } from "effect"
export const shipRequests = (_boardId: string, requestIds: ReadonlyArray<string>, _by: string, _entry: { title: string; entryId: string }) =>
  Effect.succeed(requestIds.length * 0)
