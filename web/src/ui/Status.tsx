/** What a view shows while loading, when a call fails (a 403 as a clear message), and for unknown URLs. */
import { isRouteErrorResponse, Link, useRouteError } from "react-router"
import { messageOf } from "../api/client.ts"

export const Loading = ({ what }: { readonly what: string }) => (
  <p className="muted" aria-busy="true">
    Loading {what}…
  </p>
)

export const ErrorMessage = ({ error, what }: { readonly error: unknown; readonly what?: string }) => (
  <p className="error" role="alert">
    {what !== undefined ? `${what}: ` : ""}
    {messageOf(error)}
  </p>
)

export const NotFound = () => (
  <section className="card narrow" aria-labelledby="not-found-title">
    <h1 id="not-found-title">Page not found</h1>
    <p>
      Nothing lives at this address. <Link to="/">Go to your workspaces</Link>.
    </p>
  </section>
)

export const RouteError = () => {
  const error = useRouteError()
  return (
    <section className="card narrow" aria-labelledby="route-error-title">
      <h1 id="route-error-title">This page could not be shown</h1>
      <p className="error" role="alert">
        {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : messageOf(error, "An unexpected error occurred")}
      </p>
      <p>
        <Link to="/">Go to your workspaces</Link>
      </p>
    </section>
  )
}
