/**
 * The call's media through short-lived signed URLs: video when the recording
 * has a picture, else its audio; a call imported from a transcript only says so.
 */
import { useQuery } from "@tanstack/react-query"
import type { Ref } from "react"
import { client } from "../../api/client.ts"
import { ErrorMessage } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"

const SIGNED_URL_STALE_MS = 4 * 60_000

export const Media = ({
  recordingId,
  mediaRef,
  title
}: {
  readonly recordingId: number
  readonly mediaRef: Ref<HTMLMediaElement>
  readonly title: string
}) => {
  const path = { recordingId: String(recordingId) }
  const recording = useQuery({
    queryKey: ["hub", "recording", recordingId],
    queryFn: () => unwrap(client.GET("/hub/v1/recordings/{recordingId}", { params: { path } }))
  })
  const media = recording.data?.media ?? null
  const hasVideo = media?.hasVideo === true
  const signed = useQuery({
    queryKey: ["hub", "media-url", recordingId, hasVideo ? "video" : "audio"],
    queryFn: () =>
      unwrap(
        hasVideo
          ? client.GET("/hub/v1/recordings/{recordingId}/video-url", { params: { path } })
          : client.GET("/hub/v1/recordings/{recordingId}/audio-url", { params: { path } })
      ),
    enabled: media !== null && recording.data?.status === "ready",
    staleTime: SIGNED_URL_STALE_MS
  })
  if (recording.isError) return <ErrorMessage error={recording.error} what="Media" />
  if (recording.data && media === null) return <p className="muted">No audio or video for this meeting (imported from a transcript).</p>
  if (signed.isError) return <ErrorMessage error={signed.error} what="Media" />
  if (!signed.data) return null
  return hasVideo ? (
    // biome-ignore lint/a11y/useMediaCaption: the transcript beside the player is the caption track.
    <video
      ref={mediaRef as Ref<HTMLVideoElement>}
      controls
      preload="metadata"
      src={signed.data.url}
      aria-label={`Recording of ${title}`}
      className="media"
    />
  ) : (
    // biome-ignore lint/a11y/useMediaCaption: the transcript beside the player is the caption track.
    <audio
      ref={mediaRef as Ref<HTMLAudioElement>}
      controls
      preload="metadata"
      src={signed.data.url}
      aria-label={`Recording of ${title}`}
      className="media"
    />
  )
}
