/**
 * A local SMTP server that keeps what it receives, and when: the tests' and
 * the bench's stand-in for a mail provider (smtp-server, no TLS, no auth).
 */
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
  /** performance.now() when the message was accepted. */
  readonly at: number
}

export interface SmtpSink {
  readonly url: string
  readonly received: ReadonlyArray<ReceivedMail>
  readonly close: () => Promise<void>
}

export const startSmtpSink = async (options: { readonly refuse?: () => boolean } = {}): Promise<SmtpSink> => {
  const received: Array<ReceivedMail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        if (options.refuse?.()) return callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }))
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          at: performance.now()
        })
        callback()
      })
    }
  })
  // A sender that goes away mid-session (a killed node) resets its connection: smtp-server reports that on the server.
  server.on("error", () => {})
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
