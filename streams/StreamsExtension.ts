/**
 * The pm live-update streams extension: the ChangeLog (and the ChangeFeed that
 * carries committed changes to every node) as services, and the WebSocket /
 * Socket.IO endpoints attached to the uWS app.
 *
 * Tunables beside AtriumConfig (read once, at startup):
 * - `PM_EVENT_RETENTION`: events kept per workspace (default 100000)
 * - `PM_STREAM_MAX_BACKPRESSURE`: bytes buffered for one socket before it is cut off (default 1 MiB)
 */
import { Layer } from "effect"
import * as ChangeFeed from "../actors/pm/ChangeFeed.ts"
import * as ChangeLogLive from "../actors/pm/ChangeLogLive.ts"
import { extension } from "../facade/Extension.ts"
import { attachPmStreams } from "./PmStreams.ts"
import { streamOptionsFromEnv } from "./StreamOptions.ts"

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
