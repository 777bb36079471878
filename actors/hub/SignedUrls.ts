/**
 * Short-lived signed URLs for a recording's media: the expiry is in the URL
 * and covered by an HMAC, so a download needs no session and a tampered or
 * expired link is refused (403).
 */
import { Effect } from "effect"
import { reject } from "../../runtime/Rejection.ts"
import { HubKeys } from "./HubKeys.ts"

/** How long a signed URL stays valid. */
export const SIGNED_URL_SECONDS = Number(process.env.HUB_SIGNED_URL_SECONDS || 600)

const payloadOf = (recordingId: number, asset: string, expires: number) => `${recordingId}\n${asset}\n${expires}`

export const signedUrl = (origin: string, recordingId: number, asset: string, seconds = SIGNED_URL_SECONDS) =>
  HubKeys.use((keys) => {
    const expires = Math.floor(Date.now() / 1000) + seconds
    const signature = keys.sign(payloadOf(recordingId, asset, expires))
    return Effect.succeed({
      url: `${origin}/hub/v1/media/${recordingId}/${encodeURIComponent(asset)}?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000).toISOString()
    })
  })

/** Checks a download's signature and expiry (403 either way, without saying which part was wrong). */
export const verifySigned = (recordingId: number, asset: string, expires: number, signature: string) =>
  HubKeys.use((keys) =>
    !keys.verify(payloadOf(recordingId, asset, expires), signature)
      ? Effect.fail(reject("forbidden", "The link's signature does not match"))
      : expires * 1000 < Date.now()
        ? Effect.fail(reject("forbidden", "The link has expired; ask for a new one"))
        : Effect.void
  )
