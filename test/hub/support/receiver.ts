/** A local webhook receiver for the tests: records every request and answers what the test scripts. */
import { createServer, type Server } from "node:http"

export interface Received {
  readonly headers: Record<string, string | undefined>
  readonly body: string
}

export interface Receiver {
  readonly url: string
  readonly port: number
  readonly received: Array<Received>
  /** The statuses to answer, in order; 200 once they run out. */
  answers: Array<number>
  readonly close: () => Promise<void>
}

export const startReceiver = async (port = 0): Promise<Receiver> => {
  const received: Array<Received> = []
  const receiver = { received, answers: [] as Array<number> } as { -readonly [K in keyof Receiver]: Receiver[K] }
  const server: Server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => (body += chunk))
    request.on("end", () => {
      received.push({
        headers: {
          "webhook-id": request.headers["webhook-id"] as string | undefined,
          "webhook-timestamp": request.headers["webhook-timestamp"] as string | undefined,
          "webhook-signature": request.headers["webhook-signature"] as string | undefined,
          "content-type": request.headers["content-type"]
        },
        body
      })
      response.writeHead(receiver.answers.shift() ?? 200).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  const address = server.address()
  const bound = typeof address === "object" && address !== null ? address.port : port
  receiver.port = bound
  receiver.url = `http://127.0.0.1:${bound}/hook`
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return receiver as Receiver
}

/** Polls `check` until it holds (no fixed sleeps; the suite's timeout bounds it). */
export const eventually = async <T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}
