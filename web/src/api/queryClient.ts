/**
 * The app's one query cache. Reads stay fresh while the live streams keep
 * them so (a warm page switch renders from the cache); a call the server
 * answered with an error is not retried (a lost connection is); a signed-out session clears everything.
 */
import { QueryClient } from "@tanstack/react-query"
import { currentSession } from "./session.ts"

/** The server answered with its error envelope (a refusal, not a lost connection). */
const answered = (error: unknown): boolean => typeof (error as { error?: { code?: unknown } } | undefined)?.error?.code === "string"

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 10 * 60_000,
      refetchOnWindowFocus: false,
      retry: (failures, error) => !answered(error) && failures < 3
    }
  }
})

let signedInAs = currentSession()?.user.id
/**
 * Another user's cache must never show: it is cleared when a session ends (or
 * changes hands). Signing in from no session keeps the cache: it is empty, and
 * the queries the new page already started stay attached to it.
 */
export const forgetOtherUsers = (userId: string | undefined) => {
  const before = signedInAs
  signedInAs = userId
  if (before !== undefined && before !== userId) queryClient.clear()
}
