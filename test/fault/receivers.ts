/**
 * The outboxes' local receivers for the fault suite: an HTTP server counting
 * webhook deliveries by `webhook-id`, and an SMTP server (smtp-server)
 * counting mails by recipient. Each receipt keeps its time (same clock as the
 * workload's log), so a check can tell what arrived around a fault.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { startSmtpSink } from "../support/SmtpSink.ts"

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

  const smtp = await startSmtpSink()
  const mails = () =>
    smtp.received.flatMap((mail) => {
      const subject = /^Subject: (.*)$/m.exec(mail.raw)?.[1]?.trim() ?? ""
      return mail.to.map((to) => ({ key: `${to.toLowerCase()} ${subject}`, at: mail.at }))
    })

  return {
    hookUrl: (label) => `http://127.0.0.1:${httpPort}/hook/${encodeURIComponent(label)}`,
    hooks: (label) => hooks.get(label) ?? [],
    smtpUrl: smtp.url,
    mails,
    close: async () => {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      await smtp.close()
    }
  }
}
