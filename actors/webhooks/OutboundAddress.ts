/**
 * SSRF guard for every URL the platform calls on a user's behalf (webhooks,
 * vendor base URLs a user typed): only http(s), and no private, loopback,
 * link-local or otherwise internal address unless configuration allows it
 * (tests on loopback set ATRIUM_ALLOW_PRIVATE_URLS=1). Names are resolved
 * here and every address they resolve to is checked.
 */
import { lookup } from "node:dns/promises"
import { isIP } from "node:net"

export type OutboundRefusal = { readonly reason: string }

const privateV4 = (address: string): boolean => {
  const [a, b] = address.split(".").map(Number) as [number, number]
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  )
}

const privateV6 = (address: string): boolean => {
  const lower = address.toLowerCase()
  if (lower === "::" || lower === "::1") return true
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (mapped) return privateV4(mapped[1]!)
  return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(lower)
}

export const isPrivateAddress = (address: string): boolean =>
  isIP(address) === 4 ? privateV4(address) : isIP(address) === 6 ? privateV6(address) : true

export const privateUrlsAllowed = (): boolean => process.env.ATRIUM_ALLOW_PRIVATE_URLS === "1"

/** Undefined when `url` may be called; otherwise why not (for a 400 naming the field). */
export const checkOutboundUrl = async (url: string, allowPrivate: boolean = privateUrlsAllowed()): Promise<OutboundRefusal | undefined> => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { reason: "is not an absolute URL" }
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { reason: "must be an http or https URL" }
  if (parsed.username || parsed.password) return { reason: "must not carry credentials" }
  if (allowPrivate) return undefined
  const host = parsed.hostname.replace(/^\[|\]$/g, "")
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true, verbatim: true }).then(
        (found) => found.map((entry) => entry.address),
        () => undefined
      )
  if (addresses === undefined || addresses.length === 0) return { reason: `host ${host} does not resolve` }
  const internal = addresses.find(isPrivateAddress)
  return internal === undefined ? undefined : { reason: `resolves to a private or internal address (${internal})` }
}
