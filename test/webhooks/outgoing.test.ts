import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { checkOutboundUrl, isPrivateAddress } from "../../actors/webhooks/OutboundAddress.ts"
import { nextRetryDelayMs, retryAfterMs } from "../../actors/webhooks/RetrySchedule.ts"
import { newWebhookSecret, verifyWebhook, webhookHeaders } from "../../actors/webhooks/StandardWebhooks.ts"

describe("Standard Webhooks signing", () => {
  it("signs id.timestamp.body with the secret's key, as the specification's formula says", () => {
    const secret = newWebhookSecret()
    const headers = webhookHeaders(secret, "msg_1", 1_700_000_000, '{"a":1}')
    const key = Buffer.from(secret.slice("whsec_".length), "base64")
    const expected = createHmac("sha256", key).update('msg_1.1700000000.{"a":1}').digest("base64")
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`)
    const received = { id: "msg_1", timestamp: "1700000000", signature: `v1,bogus ${headers["webhook-signature"]}` }
    expect(verifyWebhook(secret, received, '{"a":1}', { nowSeconds: 1_700_000_100 })).toBe(true)
    expect(verifyWebhook(secret, received, '{"a":2}', { nowSeconds: 1_700_000_100 })).toBe(false)
    expect(verifyWebhook(secret, received, '{"a":1}', { nowSeconds: 1_700_001_000 })).toBe(false)
  })
})

describe("outbound URL guard", () => {
  it("refuses internal addresses unless allowed, and anything but http(s)", async () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "::1", "fd00::1", "::ffff:127.0.0.1"]) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
    expect(isPrivateAddress("93.184.216.34")).toBe(false)
    expect(await checkOutboundUrl("http://127.0.0.1:9/hook", false)).toMatchObject({ reason: expect.stringContaining("private") })
    expect(await checkOutboundUrl("http://[::1]/hook", false)).toMatchObject({ reason: expect.stringContaining("private") })
    expect(await checkOutboundUrl("http://127.0.0.1:9/hook", true)).toBeUndefined()
    expect(await checkOutboundUrl("ftp://example.com/x", true)).toMatchObject({ reason: "must be an http or https URL" })
    expect(await checkOutboundUrl("http://u:p@example.com/", true)).toMatchObject({ reason: "must not carry credentials" })
    expect(await checkOutboundUrl("http://93.184.216.34/hook", false)).toBeUndefined()
  })
})

describe("retry schedule", () => {
  it("backs off exponentially with jitter, up to a cap, and stops after the last attempt", () => {
    const policy = { maxAttempts: 4, baseMs: 1000, capMs: 3000 }
    expect(nextRetryDelayMs(1, policy, () => 0)).toBe(500)
    expect(nextRetryDelayMs(1, policy, () => 0.999)).toBeLessThanOrEqual(1000)
    expect(nextRetryDelayMs(3, policy, () => 1)).toBe(3000)
    expect(nextRetryDelayMs(4, policy)).toBeUndefined()
    expect(retryAfterMs("7")).toBe(7000)
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000)
    expect(retryAfterMs("soon")).toBeUndefined()
  })
})
