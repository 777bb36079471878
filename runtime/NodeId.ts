/**
 * Node ids: unique per process and usable as a NATS subject token / KV key
 * (letters, digits, `-`, `_` only).
 */
import { hostname } from "node:os"

const sanitize = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_")

export const make = (): string => sanitize(`${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`)

export const isValid = (id: string): boolean => /^[A-Za-z0-9_-]+$/.test(id)

/** Throws if `id` cannot be used as a node id. */
export const validate = (id: string): string => {
  if (!isValid(id)) throw new Error(`invalid node id "${id}": use letters, digits, "-" and "_"`)
  return id
}
