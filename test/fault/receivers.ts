/**
 * The outboxes' local receivers for the fault suite: an HTTP server counting
 * webhook deliveries by `webhook-id`, and an SMTP server (smtp-server)
 * counting mails by recipient. Each receipt keeps its time (same clock as the
 * workload's log), so a check can tell what arrived around a fault.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface Receipt {
  readonly key: string
  readonly at: number
}

export interface Receivers {
  /** `<origin>/hook/<label>`: where a fixture's webhook endpoint points. */
  readonly hookUrl: (label: string) => string
  /** Webhook deliveries received for `label`, in arrival order (key: webhook-id). */
  readonly hooks: (label: string) => ReadonlyArray<Receipt>
  readonly smtpUrl: string
  /** Mails received, in arrival order (key: `<recipient> <subject>`). */
  readonly mails: () => ReadonlyArray<Receipt>
  readonly close: () => Promise<void>
}

export const startReceivers = async (): Promise<Receivers> => {
  const hooks = new Map<string, Array<Receipt>>()
  const http = createServer((req, res) => {
    // A node killed mid-delivery resets the connection; its delivery was not received, which is what the test counts.
    req.on("error", () => {})
    req.resume()
    req.on("end", () => {
      const label = decodeURIComponent((req.url ?? "").replace(/^\/hook\//, ""))
      const list = hooks.get(label) ?? []
      list.push({ key: String(req.headers["webhook-id"]), at: performance.now() })
      hooks.set(label, list)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  const httpPort = (http.address() as AddressInfo).port

  const mails: Array<Receipt> = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const subject = /^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString("utf8"))?.[1]?.trim() ?? ""
        for (const rcpt of session.envelope.rcptTo) mails.push({ key: `${rcpt.address.toLowerCase()} ${subject}`, at: performance.now() })
        callback()
      })
    }
  })
  // smtp-server reports a connection reset by a killed node on the server; without a listener that is an uncaught error.
  smtp.on("error", () => {})
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve))
  const smtpPort = (smtp.server.address() as AddressInfo).port

  return {
    hookUrl: (label) => `http://127.0.0.1:${httpPort}/hook/${encodeURIComponent(label)}`,
    hooks: (label) => hooks.get(label) ?? [],
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    mails: () => mails,
    close: async () => {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  }
}
