/** Awaits an API call: its data, or the client's ApiError (status and the server's message). */
import { data } from "../../api/client.ts"

export const unwrap = <T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => pending.then(data)
