/**
 * The seam between the HTTP facade and what runs beside it (real-time
 * documents, live update streams): an extension contributes services that
 * operations use (its layer, built on the core services) and may attach
 * socket routes to the uWS app when the server starts. Like Hocuspocus
 * extensions, but for the whole process.
 */
import type { Effect, Layer } from "effect"
import type { AtriumConfig } from "./Config.ts"
import type { TemplatedApp } from "./uws.ts"

/**
 * An extension's layer builds on what the ones before it provide (`RIn`);
 * its attach step runs in the full service context (`RAttach`). The
 * composition root (Atrium.ts) checks both.
 */
export interface Extension<ROut = never, E = never, RIn = never, RAttach = never> {
  readonly name: string
  /** Services the extension provides to operations (e.g. LiveDocuments, ChangeLog). */
  readonly layer: (config: AtriumConfig) => Layer.Layer<ROut, E, RIn>
  /**
   * Attach socket routes before the server listens; finalizers run at drain.
   * Runs in the full service context (core services and every extension's).
   */
  readonly attach?: (app: TemplatedApp, config: AtriumConfig) => Effect.Effect<void, never, RAttach>
}

/** Declares an extension, keeping the types of what it provides and needs. */
export const extension = <ROut = never, E = never, RIn = never, RAttach = never>(
  definition: Extension<ROut, E, RIn, RAttach>
): Extension<ROut, E, RIn, RAttach> => definition
