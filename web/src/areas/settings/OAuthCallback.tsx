/**
 * `/oauth/callback?code&state`: where a vendor sends the browser back after
 * consent. Finishes the flow from this session (the server checks the state
 * is this session's, unused and fresh), then returns to the integrations page.
 */
import { useMutation } from "@tanstack/react-query"
import { useEffect, useRef } from "react"
import { Link, useNavigate, useSearchParams } from "react-router"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { takeOAuthReturn } from "./oauthReturn.ts"
import "../common/areas.css"

export const OAuthCallback = () => {
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const code = search.get("code")
  const state = search.get("state")
  const vendorError = search.get("error")
  const started = useRef(false)
  const complete = useMutation({
    mutationFn: () => unwrap(client.POST("/hub/v1/oauth/callback", { body: { code: code ?? "", state: state ?? "" } })),
    onSuccess: (connection) => {
      announce(`${connection.name} connected`)
      navigate(takeOAuthReturn(), { replace: true })
    }
  })
  useEffect(() => {
    if (started.current || !code || !state || vendorError) return
    started.current = true
    complete.mutate()
  }, [code, state, vendorError, complete])
  return (
    <section className="card narrow" aria-labelledby="oauth-title">
      <h1 id="oauth-title">Connecting…</h1>
      {vendorError ? <p role="alert">The vendor did not grant access: {search.get("error_description") ?? vendorError}</p> : null}
      {!vendorError && (!code || !state) ? (
        <p role="alert">This page is where a vendor returns after you connect it; the address is missing its code.</p>
      ) : null}
      {complete.isPending ? <p aria-busy="true">Finishing the connection…</p> : null}
      {complete.isError ? <ErrorMessage error={complete.error} what="The connection could not be finished" /> : null}
      {complete.isError || vendorError || !code || !state ? (
        <p>
          <Link to="/">Back to your workspaces</Link>
        </p>
      ) : null}
    </section>
  )
}
