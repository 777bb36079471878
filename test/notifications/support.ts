/**
 * The notification tests' mail: a real SMTP server the sender mails to
 * (SMTP_URL), instant notifications due at once, links pointing at the
 * server under test, and what arrived, by recipient and parsed.
 */
import { type ParsedMail, simpleParser } from "mailparser"
import { startSmtpSink } from "../support/SmtpSink.ts"

export const startNotificationMail = async () => {
  const sink = await startSmtpSink()
  process.env.SMTP_URL = sink.url
  process.env.NOTIFY_INSTANT_DELAY_SECONDS = "0"
  return {
    sink,
    /** Links in the mails point at `origin` (the server under test, known once it started). */
    linkTo: (origin: string) => {
      process.env.ATRIUM_PUBLIC_URL = origin
    },
    mailsTo: (email: string) => sink.received.filter((mail) => mail.to.includes(email)),
    close: async () => {
      await sink.close()
      delete process.env.SMTP_URL
      delete process.env.NOTIFY_INSTANT_DELAY_SECONDS
      delete process.env.ATRIUM_PUBLIC_URL
    }
  }
}

export type NotificationMail = Awaited<ReturnType<typeof startNotificationMail>>

export const parsed = (raw: string) => simpleParser(raw) as Promise<ParsedMail>
