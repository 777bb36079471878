/**
 * The real-time parts beside the REST operations, mounted on the facade's
 * extension seam: collab/ (live documents and the Hocuspocus endpoint) and
 * streams/ (the pm live-update streams). They know nothing of the facade; the
 * seam is declared here, where it is used.
 *
 * Tunables of the streams beside AtriumConfig (read once, at startup):
 * - `PM_EVENT_RETENTION`: events kept per workspace (default 100000)
 * - `PM_STREAM_MAX_BACKPRESSURE`: bytes buffered for one socket before it is cut off (default 1 MiB)
 */
import { Layer } from "effect"
import * as ChangeFeed from "../actors/pm/ChangeFeed.ts"
import * as ChangeLogLive from "../actors/pm/ChangeLogLive.ts"
import { attachCollab, collabLayer } from "../collab/CollabExtension.ts"
import { attachPmStreams } from "../streams/PmStreams.ts"
import { streamOptionsFromEnv } from "../streams/StreamOptions.ts"
import { extension } from "./Extension.ts"

export const collabExtension = extension({
  name: "collab",
  layer: (config) => collabLayer(config),
  attach: (app) => attachCollab(app)
})

export const streamsExtension = extension({
  name: "streams",
  layer: (config) => {
    const options = streamOptionsFromEnv()
    return ChangeLogLive.layer({ retention: options.retention }).pipe(
      Layer.provideMerge(ChangeFeed.layer({ natsUrl: config.natsUrl, natsPrefix: config.natsPrefix }))
    )
  },
  attach: (app) => attachPmStreams(app, streamOptionsFromEnv())
})
