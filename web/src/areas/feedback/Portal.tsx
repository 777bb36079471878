/**
 * A public board's portal (`/portal/:slug`, `?workspace=` when several
 * workspaces use the slug): no account needed. Visitors browse and filter
 * requests, submit one, vote and unvote (an anonymous voter id kept in this
 * browser), read comments, the roadmap and the changelog with milestone
 * articles; visitors comment under a name where the board lets anyone post,
 * signed-in people as themselves. Live over the board's stream for
 * signed-in readers who may see the board; visitors see "not live" and Refresh.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { Link, NavLink, Route, Routes, useParams, useSearchParams } from "react-router"
import { client } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { announce, Announcer } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { day } from "../common/time.ts"
import { CommentForm, CommentList } from "./CommentThread.tsx"
import { liveWords, portalKey, useBoardLive, visitorId } from "./queries.ts"
import { ChangelogEntryCard, MilestoneCard, milestoneWhen } from "./ReleaseCards.tsx"
import { RequestFilters, RequestRow, useRequestFilters, VoteToggle } from "./RequestList.tsx"
import { RoadmapView } from "./Roadmap.tsx"
import { ServerHtml } from "./ServerHtml.tsx"

interface Where {
  readonly slug: string
  readonly workspaceId: string | undefined
}

const useWhere = (): Where => {
  const { slug = "" } = useParams()
  const [search] = useSearchParams()
  return { slug, workspaceId: search.get("workspace") ?? undefined }
}

/** Path and `workspaceId` query of the public operations. */
const paramsOf = (where: Where) => ({ path: { slug: where.slug }, query: where.workspaceId ? { workspaceId: where.workspaceId } : {} })

/** Which board the portal shows, and its links (keeping `?workspace=`). */
const usePortal = () => {
  const where = useWhere()
  const link = (rest: string) =>
    `/portal/${encodeURIComponent(where.slug)}${rest}${where.workspaceId ? `?workspace=${encodeURIComponent(where.workspaceId)}` : ""}`
  return { where, link }
}

/** A read of the portal, cached under the portal's key (so a vote or a comment refreshes every view of it). */
const usePortalRead = <T,>(where: Where, what: ReadonlyArray<unknown>, read: () => Promise<T>) =>
  useQuery({ queryKey: [...portalKey(where.slug, where.workspaceId), ...what], queryFn: read })

const usePublicBoard = (where: Where) =>
  usePortalRead(where, ["board"], () => unwrap(client.GET("/feedback/v1/public/boards/{slug}", { params: paramsOf(where) })))

/** The short ids this browser voted for. */
const useMyVotes = (where: Where) =>
  usePortalRead(where, ["my-votes"], () =>
    unwrap(
      client.GET("/feedback/v1/public/boards/{slug}/votes", {
        params: { path: { slug: where.slug }, query: { ...paramsOf(where).query, visitorId: visitorId() } }
      })
    )
  )

const VoteButton = ({
  where,
  shortId,
  count,
  allowed
}: {
  readonly where: Where
  readonly shortId: string
  readonly count: number | string
  readonly allowed: boolean
}) => {
  const queryClient = useQueryClient()
  const votes = useMyVotes(where)
  const voted = votes.data?.items.includes(shortId) === true
  const toggle = useMutation({
    mutationFn: () => {
      const path = { slug: where.slug, shortId }
      return unwrap(
        voted
          ? client.DELETE("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}/votes", {
              params: { path, query: { ...paramsOf(where).query, visitorId: visitorId() } }
            })
          : client.POST("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}/votes", {
              params: { path, query: paramsOf(where).query },
              body: { visitorId: visitorId() }
            })
      )
    },
    onSuccess: (state) => {
      announce(state.voted ? `Voted for ${state.shortId}` : `Vote removed from ${state.shortId}`)
      void queryClient.invalidateQueries({ queryKey: portalKey(where.slug, where.workspaceId) })
    }
  })
  return (
    <>
      <VoteToggle
        shortId={shortId}
        count={count}
        voted={voted}
        disabled={!allowed || toggle.isPending}
        title={allowed ? undefined : "This board takes votes from signed-in members only"}
        onToggle={() => toggle.mutate()}
      />
      {toggle.isError ? <ErrorMessage error={toggle.error} /> : null}
    </>
  )
}

/** Who a visitor says they are, and the honeypot bots fill. */
interface Visitor {
  readonly name: string
  readonly email: string
  readonly website: string
}
const noVisitor: Visitor = { name: "", email: "", website: "" }

/** The visitor's part of the body: the name, the e-mail and the honeypot, each only when given. */
const visitorBody = (visitor: Visitor) => ({
  ...(visitor.name ? { name: visitor.name } : {}),
  ...(visitor.email ? { email: visitor.email } : {}),
  ...(visitor.website ? { website: visitor.website } : {})
})

const VisitorFields = ({
  visitor,
  onChange,
  nameRequired
}: {
  readonly visitor: Visitor
  readonly onChange: (visitor: Visitor) => void
  readonly nameRequired: boolean
}) => (
  <>
    <label>
      Your name{nameRequired ? "" : " (optional)"}{" "}
      <input
        value={visitor.name}
        onChange={(event) => onChange({ ...visitor, name: event.currentTarget.value })}
        required={nameRequired}
        maxLength={100}
        autoComplete="name"
      />
    </label>
    <label>
      E-mail to hear back (optional, never shown){" "}
      <input
        type="email"
        value={visitor.email}
        onChange={(event) => onChange({ ...visitor, email: event.currentTarget.value })}
        autoComplete="email"
      />
    </label>
    {/* A field people never see: bots fill it, and what they send is dropped. */}
    <label className="honeypot" aria-hidden="true">
      Website{" "}
      <input
        tabIndex={-1}
        value={visitor.website}
        onChange={(event) => onChange({ ...visitor, website: event.currentTarget.value })}
        autoComplete="off"
      />
    </label>
  </>
)

const Submit = ({ where, moderated }: { readonly where: Where; readonly moderated: boolean }) => {
  const queryClient = useQueryClient()
  const [kind, setKind] = useState<"featureRequest" | "bugReport">("featureRequest")
  const [title, setTitle] = useState("")
  const [details, setDetails] = useState("")
  const [visitor, setVisitor] = useState(noVisitor)
  const submit = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/public/boards/{slug}/form", {
          params: paramsOf(where),
          body: {
            kind,
            title,
            ...(details ? { details } : {}),
            ...visitorBody(visitor),
            ...(kind === "bugReport"
              ? { environment: { browser: navigator.userAgent.slice(0, 200), url: location.href.slice(0, 2000) } }
              : {})
          }
        })
      ),
    onSuccess: () => {
      setTitle("")
      setDetails("")
      void queryClient.invalidateQueries({ queryKey: portalKey(where.slug, where.workspaceId) })
    }
  })
  return (
    <section aria-labelledby="submit-heading" className="panel">
      <h2 id="submit-heading">Share an idea or report a bug</h2>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          submit.mutate()
        }}
      >
        <fieldset className="row">
          <legend className="visually-hidden">Kind</legend>
          <label className="check">
            <input type="radio" name="kind" checked={kind === "featureRequest"} onChange={() => setKind("featureRequest")} /> Feature
            request
          </label>
          <label className="check">
            <input type="radio" name="kind" checked={kind === "bugReport"} onChange={() => setKind("bugReport")} /> Bug report
          </label>
        </fieldset>
        <label>
          Title <input value={title} onChange={(event) => setTitle(event.currentTarget.value)} required maxLength={300} />
        </label>
        <label>
          Details <textarea rows={3} value={details} onChange={(event) => setDetails(event.currentTarget.value)} maxLength={20000} />
        </label>
        <VisitorFields visitor={visitor} onChange={setVisitor} nameRequired={false} />
        <button type="submit" disabled={submit.isPending}>
          Submit
        </button>
        {submit.isError ? <ErrorMessage error={submit.error} /> : null}
        <p role="status">
          {submit.data
            ? submit.data.moderation === "pending"
              ? "Thanks! Your post will appear once the team has reviewed it."
              : `Thanks! Posted as ${submit.data.shortId ?? "a new post"}.`
            : moderated
              ? "Posts are reviewed by the team before they appear."
              : ""}
        </p>
      </form>
    </section>
  )
}

const PublicRequests = () => {
  const { where, link } = usePortal()
  const board = usePublicBoard(where)
  const { statusType, category, area, sort } = useRequestFilters()
  const form = usePortalRead(where, ["form"], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/form", { params: paramsOf(where) }))
  )
  const query = {
    ...paramsOf(where).query,
    sort,
    limit: "100",
    ...(statusType ? { statusType } : {}),
    ...(category ? { category } : {})
  }
  const requests = usePortalRead(where, ["requests", query], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/feature-requests", { params: { path: { slug: where.slug }, query } }))
  )
  const shown = (requests.data?.items ?? []).filter(
    (request) => request.mergedInto === null && (area === "" || request.productArea?.name === area)
  )
  const byName = (option: { readonly name: string }) => ({ value: option.name, label: option.name })
  return (
    <div className="portal-columns">
      <div>
        <RequestFilters
          statusTypes={board.data?.statuses.map((status) => status.type) ?? []}
          categories={board.data?.categories.map(byName) ?? []}
          areas={board.data?.productAreas.map(byName) ?? []}
        />
        {requests.isPending ? <Loading what="requests" /> : null}
        {requests.isError ? <ErrorMessage error={requests.error} what="Requests" /> : null}
        {requests.data && shown.length === 0 ? <p>No requests match.</p> : null}
        <ul className="request-list" aria-label="Feature requests">
          {shown.map((request) => (
            <RequestRow
              key={request.id}
              request={request}
              to={link(`/requests/${request.shortId}`)}
              noStatus="Open"
              vote={
                <VoteButton
                  where={where}
                  shortId={request.shortId}
                  count={request.voteCount}
                  allowed={board.data?.anonymousVoting === true}
                />
              }
            />
          ))}
        </ul>
      </div>
      <Submit where={where} moderated={form.data?.moderated === true} />
    </div>
  )
}

/** Signed in, people comment as themselves; visitors under a name they give (the e-mail stays with the team). */
const PortalComment = ({
  where,
  request,
  asVisitor,
  onPosted
}: {
  readonly where: Where
  readonly request: { readonly id: string; readonly shortId: string }
  readonly asVisitor: boolean
  readonly onPosted: () => void
}) => {
  const [visitor, setVisitor] = useState(noVisitor)
  const [held, setHeld] = useState(false)
  const send = (body: string) =>
    asVisitor
      ? unwrap(
          client.POST("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}/comments", {
            params: { path: { slug: where.slug, shortId: request.shortId }, query: paramsOf(where).query },
            body: { ...visitorBody(visitor), name: visitor.name, body }
          })
        ).then((receipt) => receipt.moderation === "pending")
      : unwrap(
          client.POST("/feedback/v1/feature-requests/{featureRequestId}/comments", {
            params: { path: { featureRequestId: request.id } },
            body: { body }
          })
        ).then((comment) => comment.moderationState === "pending")
  return (
    <CommentForm
      send={send}
      maxLength={asVisitor ? 5000 : 10000}
      onSent={(pending) => {
        setHeld(pending)
        // A held comment is told by the form's status line; a shown one by the announcer.
        if (!pending) announce("Comment posted")
        onPosted()
      }}
    >
      {asVisitor ? <VisitorFields visitor={visitor} onChange={setVisitor} nameRequired /> : null}
      {held ? <p role="status">Thanks! Your comment will appear once the team has reviewed it.</p> : null}
    </CommentForm>
  )
}

const PublicRequest = () => {
  const { where, link } = usePortal()
  const session = useSession()
  const queryClient = useQueryClient()
  const shortId = useParams().shortId ?? ""
  const board = usePublicBoard(where)
  const params = { path: { slug: where.slug, shortId }, query: paramsOf(where).query }
  const request = usePortalRead(where, ["request", shortId], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}", { params }))
  )
  const comments = usePortalRead(where, ["comments", shortId], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}/comments", { params }))
  )
  if (request.isPending) return <Loading what="the request" />
  if (request.isError) return <ErrorMessage error={request.error} what="Request" />
  const data = request.data
  const refresh = () => void queryClient.invalidateQueries({ queryKey: portalKey(where.slug, where.workspaceId) })
  return (
    <article aria-labelledby="public-request-title">
      <p className="breadcrumb">
        <Link to={link("")}>All requests</Link>
      </p>
      <h2 id="public-request-title">
        <span className="muted">{data.shortId}</span> {data.title}
      </h2>
      {data.mergedInto ? (
        <p className="notice">
          Merged into <Link to={link(`/requests/${data.mergedInto}`)}>{data.mergedInto}</Link>: votes count there.
        </p>
      ) : null}
      <p className="muted">
        {data.authorName ? `By ${data.authorName} · ` : ""}
        {day(data.createdAt)} · {data.status?.name ?? "Open"}
      </p>
      <div className="row">
        <VoteButton where={where} shortId={data.shortId} count={data.voteCount} allowed={board.data?.anonymousVoting === true} />
      </div>
      {data.description ? <p className="pre-wrap">{data.description}</p> : null}
      <section aria-labelledby="public-comments-heading" className="panel">
        <h2 id="public-comments-heading">Comments</h2>
        {comments.isError ? <ErrorMessage error={comments.error} what="Comments" /> : null}
        <CommentList
          comments={comments.data?.items.map((comment) => ({
            id: comment.id,
            author: comment.authorName ?? "Someone",
            body: comment.body,
            createdAt: comment.createdAt
          }))}
        />
        {board.data?.allowComments === false ? null : session || board.data?.visitorComments ? (
          <PortalComment where={where} request={data} asVisitor={session === undefined} onPosted={refresh} />
        ) : (
          <p className="muted">
            <Link to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`}>Sign in</Link> to comment.
          </p>
        )}
      </section>
    </article>
  )
}

const PublicRoadmap = () => {
  const { where, link } = usePortal()
  const roadmap = usePortalRead(where, ["roadmap"], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/roadmap", { params: paramsOf(where) }))
  )
  if (roadmap.isPending) return <Loading what="the roadmap" />
  if (roadmap.isError) return <ErrorMessage error={roadmap.error} what="Roadmap" />
  return (
    <RoadmapView
      columns={roadmap.data.columns.map((column) => ({
        type: column.type,
        items: column.requests.filter((request) => request.mergedInto === null)
      }))}
      linkOf={(card) => link(`/requests/${card.shortId}`)}
    />
  )
}

const MilestoneArticle = ({ where, milestoneId }: { readonly where: Where; readonly milestoneId: string }) => {
  const article = usePortalRead(where, ["article", milestoneId], () =>
    unwrap(
      client.GET("/feedback/v1/public/boards/{slug}/milestones/{milestoneId}/article", {
        params: { path: { slug: where.slug, milestoneId }, query: paramsOf(where).query }
      })
    )
  )
  return article.data ? <ServerHtml html={article.data.html} /> : null
}

const PublicChangelog = () => {
  const { where, link } = usePortal()
  const entries = usePortalRead(where, ["changelog"], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/changelog", { params: paramsOf(where) }))
  )
  const milestones = usePortalRead(where, ["milestones"], () =>
    unwrap(client.GET("/feedback/v1/public/boards/{slug}/milestones", { params: paramsOf(where) }))
  )
  return (
    <div className="stack">
      <section aria-labelledby="public-changelog-heading">
        <h2 id="public-changelog-heading">Changelog</h2>
        {entries.isError ? <ErrorMessage error={entries.error} what="Changelog" /> : null}
        {entries.data && entries.data.items.length === 0 ? <p>Nothing published yet.</p> : null}
        {entries.data?.items.map((entry) => (
          <ChangelogEntryCard key={entry.id} title={entry.title} kind={entry.kind} dateLine={day(entry.publishedAt)} html={entry.html} />
        ))}
      </section>
      <section aria-labelledby="public-milestones-heading">
        <h2 id="public-milestones-heading">Milestones</h2>
        {milestones.data?.items.map((milestone) => (
          <MilestoneCard key={milestone.id} name={milestone.name} dateLine={milestoneWhen(milestone, "")}>
            {milestone.hasArticle ? <MilestoneArticle where={where} milestoneId={milestone.id} /> : null}
            {milestone.featureRequests.length > 0 ? (
              <ul>
                {milestone.featureRequests.map((request) => (
                  <li key={request.shortId}>
                    <Link to={link(`/requests/${request.shortId}`)}>
                      {request.shortId} {request.title}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </MilestoneCard>
        ))}
      </section>
    </div>
  )
}

export const Portal = () => {
  const { where, link } = usePortal()
  const session = useSession()
  const queryClient = useQueryClient()
  const board = usePublicBoard(where)
  const live = useBoardLive(board.data?.id, portalKey(where.slug, where.workspaceId), session !== undefined)
  useEffect(() => {
    if (board.data) document.title = `${board.data.name} · Feedback`
  }, [board.data])
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link className="brand" to="/">
          Atrium
        </Link>
      </header>
      <main id="main" className="portal" tabIndex={-1}>
        {board.isPending ? <Loading what="the board" /> : null}
        {board.isError ? <ErrorMessage error={board.error} what="This board" /> : null}
        {board.data ? (
          <>
            <h1>{board.data.name}</h1>
            {board.data.description ? <p className="muted">{board.data.description}</p> : null}
            <p className="row small">
              <span role="status" className="live-state" data-state={live}>
                {liveWords[live]}
              </span>
              {live !== "live" ? (
                <button
                  type="button"
                  onClick={() => void queryClient.invalidateQueries({ queryKey: portalKey(where.slug, where.workspaceId) })}
                >
                  Refresh
                </button>
              ) : null}
            </p>
            <nav aria-label="Board" className="area-tabs">
              <NavLink to={link("")} end>
                Requests
              </NavLink>
              <NavLink to={link("/roadmap")}>Roadmap</NavLink>
              <NavLink to={link("/changelog")}>Changelog</NavLink>
            </nav>
            <Routes>
              <Route index element={<PublicRequests />} />
              <Route path="requests/:shortId" element={<PublicRequest />} />
              <Route path="roadmap" element={<PublicRoadmap />} />
              <Route path="changelog" element={<PublicChangelog />} />
            </Routes>
          </>
        ) : null}
      </main>
      <Announcer />
    </>
  )
}
