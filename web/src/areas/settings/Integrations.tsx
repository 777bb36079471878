/**
 * The workspace's integrations: connected vendors, connecting one by OAuth
 * (the browser goes to the vendor's consent page and comes back to
 * `/oauth/callback`) or with an access token, and disconnecting (admins).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import type { operations } from "../../api/generated/hub.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { day } from "../common/time.ts"
import { useWorkspaceRole } from "../common/useMe.ts"
import { rememberOAuthReturn } from "./oauthReturn.ts"

type Vendor = operations["startOAuthConnection"]["parameters"]["path"]["vendor"]

export const vendorNames: Record<Vendor, string> = {
  tracker: "Issue tracker",
  taskapp: "Task tool",
  tablebase: "Table database",
  docspace: "Document space",
  pm: "External project tool",
  chatapp: "Team chat",
  notes: "Notes",
  mail: "Mail",
  calendar: "Calendar",
  codehost: "Code host",
  videomeet: "Video meetings",
  workchat: "Work chat",
  suite: "Office suite"
}

const vendors = Object.keys(vendorNames) as Array<Vendor>

const ConnectOAuth = ({ workspaceId }: { readonly workspaceId: string }) => {
  const [vendor, setVendor] = useState<Vendor>("tracker")
  const start = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/hub/v1/workspaces/{workspaceId}/oauth/{vendor}/authorize", {
          params: { path: { workspaceId, vendor } },
          body: { name: vendorNames[vendor] }
        })
      ),
    onSuccess: (authorization) => {
      rememberOAuthReturn(`/w/${workspaceId}/settings/integrations`)
      window.location.assign(authorization.authorizeUrl)
    }
  })
  return (
    <form
      className="inline-form"
      aria-label="Connect with OAuth"
      onSubmit={(event) => {
        event.preventDefault()
        start.mutate()
      }}
    >
      <label>
        Vendor
        <select value={vendor} onChange={(event) => setVendor(event.currentTarget.value as Vendor)}>
          {vendors.map((option) => (
            <option key={option} value={option}>
              {vendorNames[option]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={start.isPending}>
        Connect with OAuth
      </button>
      {start.isError ? <ErrorMessage error={start.error} what="Connect" /> : null}
    </form>
  )
}

const ConnectToken = ({ workspaceId, onDone }: { readonly workspaceId: string; readonly onDone: () => void }) => {
  const [vendor, setVendor] = useState<Vendor>("tracker")
  const [name, setName] = useState("")
  const [baseUrl, setBaseUrl] = useState("")
  const [token, setToken] = useState("")
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/hub/v1/workspaces/{workspaceId}/integrations", {
          params: { path: { workspaceId } },
          body: { vendor, name, baseUrl, token }
        })
      ),
    onSuccess: () => {
      setToken("")
      setName("")
      onDone()
    }
  })
  return (
    <details className="panel">
      <summary>Connect with an access token</summary>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          create.mutate()
        }}
      >
        <label>
          Vendor
          <select value={vendor} onChange={(event) => setVendor(event.currentTarget.value as Vendor)}>
            {vendors.map((option) => (
              <option key={option} value={option}>
                {vendorNames[option]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name <input value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={200} />
        </label>
        <label>
          API base URL <input type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.currentTarget.value)} required />
        </label>
        <label>
          Access token{" "}
          <input type="password" value={token} onChange={(event) => setToken(event.currentTarget.value)} required autoComplete="off" />
        </label>
        <button type="submit" disabled={create.isPending}>
          Connect
        </button>
        {create.isError ? <ErrorMessage error={create.error} /> : null}
      </form>
    </details>
  )
}

export const Integrations = () => {
  const workspaceId = useParams().workspaceId!
  const queryClient = useQueryClient()
  const { isAdmin } = useWorkspaceRole(workspaceId)
  const key = ["hub", "integrations", workspaceId]
  const connections = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/integrations", { params: { path: { workspaceId } } }))
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: key })
  const disconnect = useMutation({
    mutationFn: (connectionId: string) =>
      unwrap(
        client.DELETE("/hub/v1/workspaces/{workspaceId}/integrations/{connectionId}", { params: { path: { workspaceId, connectionId } } })
      ),
    onSuccess: refresh
  })
  return (
    <section aria-labelledby="integrations-heading">
      <h2 id="integrations-heading">Integrations</h2>
      {isAdmin ? (
        <>
          <ConnectOAuth workspaceId={workspaceId} />
          <ConnectToken workspaceId={workspaceId} onDone={() => void refresh()} />
        </>
      ) : (
        <p className="muted">Only admins connect and disconnect integrations.</p>
      )}
      {connections.isPending ? <Loading what="integrations" /> : null}
      {connections.isError ? <ErrorMessage error={connections.error} what="Integrations" /> : null}
      {disconnect.isError ? <ErrorMessage error={disconnect.error} /> : null}
      {connections.data && connections.data.items.length === 0 ? <p>Nothing connected yet.</p> : null}
      <ul className="card-list" aria-label="Connections">
        {connections.data?.items.map((connection) => (
          <li key={connection.id} className="card">
            <h3 className="card-title">{connection.name}</h3>
            <p className="muted small">
              {vendorNames[connection.vendor]} · {connection.baseUrl} · connected {day(connection.createdAt)}
              {connection.hasToken ? "" : " · no token"}
            </p>
            {isAdmin ? (
              <button
                type="button"
                className="danger"
                onClick={() => disconnect.mutate(connection.id)}
                aria-label={`Disconnect ${connection.name}`}
              >
                Disconnect
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
