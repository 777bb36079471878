/** Field schemas shared by every service's DTOs and messages. */
import { Schema } from "effect"

export const Id = Schema.String.check(Schema.isUUID()).annotate({ description: "UUID", examples: ["0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"] })

export const Email = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" })
).annotate({ format: "email", examples: ["alice@example.com"] })

/** Non-empty after trimming, at most `max` characters. */
export const Name = (max = 200) => Schema.String.check(Schema.isMaxLength(max), Schema.isPattern(/\S/, { expected: "a non-blank string" }))

export const Timestamp = Schema.String.annotate({ format: "date-time", examples: ["2026-11-21T12:00:00.000Z"] })

export const now = (): string => new Date().toISOString()

export const normalizeEmail = (email: string): string => email.trim().toLowerCase()
