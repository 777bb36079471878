/**
 * A public board's portal (`/portal/:slug`, `?workspace=` when several
 * workspaces use the slug): no account needed. Visitors browse and filter
 * requests, submit one, vote and unvote (an anonymous voter id kept in this
 * browser), read comments, the roadmap and the changelog with milestone
 * articles; signed-in people also comment. Live over the board's stream for
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
import { day, when } from "../common/time.ts"
import { liveWords, portalKey, useBoardLive, visitorId } from "./queries.ts"
import { RoadmapView, type StatusType, statusTypeNames } from "./Roadmap.tsx"
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

/** A portal link keeping `?workspace=`. */
const usePortalLink = () => {
  const where = useWhere()
  return (rest: string) =>
    `/portal/${encodeURIComponent(where.slug)}${rest}${where.workspaceId ? `?workspace=${encodeURIComponent(where.workspaceId)}` : ""}`
}

const usePublicBoard = (where: Where) =>
  useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "board"],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}", { params: paramsOf(where) }))
  })

/** The short ids this browser voted for. */
const useMyVotes = (where: Where) =>
  useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "my-votes"],
    queryFn: () =>
      unwrap(
        client.GET("/feedback/v1/public/boards/{slug}/votes", {
          params: { path: { slug: where.slug }, query: { ...paramsOf(where).query, visitorId: visitorId() } }
        })
      )
  })

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
      <button
        type="button"
        className={voted ? "vote voted" : "vote"}
        aria-pressed={voted}
        disabled={!allowed || toggle.isPending}
        title={allowed ? undefined : "This board takes votes from signed-in members only"}
        onClick={() => toggle.mutate()}
        aria-label={`${voted ? "Remove vote from" : "Vote for"} ${shortId}, ${String(count)} vote${Number(count) === 1 ? "" : "s"}`}
      >
        ▲ {String(count)}
      </button>
      {toggle.isError ? <ErrorMessage error={toggle.error} /> : null}
    </>
  )
}

const Submit = ({ where, moderated }: { readonly where: Where; readonly moderated: boolean }) => {
  const queryClient = useQueryClient()
  const [kind, setKind] = useState<"featureRequest" | "bugReport">("featureRequest")
  const [title, setTitle] = useState("")
  const [details, setDetails] = useState("")
  const [email, setEmail] = useState("")
  const [name, setName] = useState("")
  const [website, setWebsite] = useState("")
  const submit = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/public/boards/{slug}/form", {
          params: paramsOf(where),
          body: {
            kind,
            title,
            ...(details ? { details } : {}),
            ...(email ? { email } : {}),
            ...(name ? { name } : {}),
            ...(website ? { website } : {}),
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
        <label>
          Your name (optional){" "}
          <input value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={100} autoComplete="name" />
        </label>
        <label>
          E-mail for updates (optional){" "}
          <input type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} autoComplete="email" />
        </label>
        {/* A field people never see: bots fill it, and their posts are dropped. */}
        <label className="honeypot" aria-hidden="true">
          Website <input tabIndex={-1} value={website} onChange={(event) => setWebsite(event.currentTarget.value)} autoComplete="off" />
        </label>
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
  const where = useWhere()
  const link = usePortalLink()
  const board = usePublicBoard(where)
  const [search, setSearch] = useSearchParams()
  const statusType = search.get("status") ?? ""
  const category = search.get("category") ?? ""
  const area = search.get("area") ?? ""
  const sort = search.get("sort") ?? "top"
  const form = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "form"],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}/form", { params: paramsOf(where) }))
  })
  const query = {
    ...paramsOf(where).query,
    sort: sort as "top",
    limit: "100",
    ...(statusType ? { statusType: statusType as StatusType } : {}),
    ...(category ? { category } : {})
  }
  const requests = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "requests", query],
    queryFn: () =>
      unwrap(client.GET("/feedback/v1/public/boards/{slug}/feature-requests", { params: { path: { slug: where.slug }, query } }))
  })
  const setFilter = (name: string, value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current)
        if (value === "") next.delete(name)
        else next.set(name, value)
        return next
      },
      { replace: true }
    )
  const shown = (requests.data?.items ?? []).filter(
    (request) => request.mergedInto === null && (area === "" || request.productArea?.name === area)
  )
  return (
    <div className="portal-columns">
      <div>
        <form className="filters" aria-label="Filter requests" onSubmit={(event) => event.preventDefault()}>
          <label>
            Status
            <select value={statusType} onChange={(event) => setFilter("status", event.currentTarget.value)}>
              <option value="">Any</option>
              {[...new Set(board.data?.statuses.map((status) => status.type) ?? [])].map((type) => (
                <option key={type} value={type}>
                  {statusTypeNames[type]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Category
            <select value={category} onChange={(event) => setFilter("category", event.currentTarget.value)}>
              <option value="">Any</option>
              {board.data?.categories.map((option) => (
                <option key={option.id} value={option.name}>
                  {option.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Product area
            <select value={area} onChange={(event) => setFilter("area", event.currentTarget.value)}>
              <option value="">Any</option>
              {board.data?.productAreas.map((option) => (
                <option key={option.id} value={option.name}>
                  {option.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Sort
            <select value={sort} onChange={(event) => setFilter("sort", event.currentTarget.value)}>
              <option value="top">Most votes</option>
              <option value="trending">Trending</option>
              <option value="new">Newest</option>
            </select>
          </label>
        </form>
        {requests.isPending ? <Loading what="requests" /> : null}
        {requests.isError ? <ErrorMessage error={requests.error} what="Requests" /> : null}
        {requests.data && shown.length === 0 ? <p>No requests match.</p> : null}
        <ul className="request-list" aria-label="Feature requests">
          {shown.map((request) => (
            <li key={request.id} className="request-row">
              <VoteButton
                where={where}
                shortId={request.shortId}
                count={request.voteCount}
                allowed={board.data?.anonymousVoting === true}
              />
              <div>
                <Link to={link(`/requests/${request.shortId}`)}>
                  <span className="muted">{request.shortId}</span> {request.title}
                </Link>
                <p className="muted small">
                  {request.status?.name ?? "Open"}
                  {request.category ? ` · ${request.category.name}` : ""}
                  {request.productArea ? ` · ${request.productArea.name}` : ""} · {String(request.commentCount)} comments
                </p>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <Submit where={where} moderated={form.data?.moderated === true} />
    </div>
  )
}

const SignedInComment = ({ requestId, onPosted }: { readonly requestId: string; readonly onPosted: () => void }) => {
  const [body, setBody] = useState("")
  const post = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/feature-requests/{featureRequestId}/comments", {
          params: { path: { featureRequestId: requestId } },
          body: { body }
        })
      ),
    onSuccess: (comment) => {
      setBody("")
      announce(comment.moderationState === "pending" ? "Your comment waits for review" : "Comment posted")
      onPosted()
    }
  })
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault()
        post.mutate()
      }}
    >
      <label>
        Add a comment <textarea rows={3} value={body} onChange={(event) => setBody(event.currentTarget.value)} required maxLength={10000} />
      </label>
      <button type="submit" disabled={post.isPending || body.trim() === ""}>
        Comment
      </button>
      {post.isError ? <ErrorMessage error={post.error} /> : null}
    </form>
  )
}

const PublicRequest = () => {
  const where = useWhere()
  const link = usePortalLink()
  const session = useSession()
  const queryClient = useQueryClient()
  const shortId = useParams().shortId ?? ""
  const board = usePublicBoard(where)
  const params = { path: { slug: where.slug, shortId }, query: paramsOf(where).query }
  const request = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "request", shortId],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}", { params }))
  })
  const comments = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "comments", shortId],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}/feature-requests/{shortId}/comments", { params }))
  })
  if (request.isPending) return <Loading what="the request" />
  if (request.isError) return <ErrorMessage error={request.error} what="Request" />
  const data = request.data
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
        {comments.data && comments.data.items.length === 0 ? <p className="muted">No comments yet.</p> : null}
        <ul className="comments">
          {comments.data?.items.map((comment) => (
            <li key={comment.id} className="comment">
              <p className="muted small">
                {comment.authorName ?? "Someone"} · {when(comment.createdAt)}
              </p>
              <p>{comment.body}</p>
            </li>
          ))}
        </ul>
        {board.data?.allowComments === false ? null : session ? (
          <SignedInComment
            requestId={data.id}
            onPosted={() => void queryClient.invalidateQueries({ queryKey: portalKey(where.slug, where.workspaceId) })}
          />
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
  const where = useWhere()
  const link = usePortalLink()
  const roadmap = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "roadmap"],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}/roadmap", { params: paramsOf(where) }))
  })
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
  const article = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "article", milestoneId],
    queryFn: () =>
      unwrap(
        client.GET("/feedback/v1/public/boards/{slug}/milestones/{milestoneId}/article", {
          params: { path: { slug: where.slug, milestoneId }, query: paramsOf(where).query }
        })
      )
  })
  return article.data ? <ServerHtml html={article.data.html} /> : null
}

const PublicChangelog = () => {
  const where = useWhere()
  const link = usePortalLink()
  const entries = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "changelog"],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}/changelog", { params: paramsOf(where) }))
  })
  const milestones = useQuery({
    queryKey: [...portalKey(where.slug, where.workspaceId), "milestones"],
    queryFn: () => unwrap(client.GET("/feedback/v1/public/boards/{slug}/milestones", { params: paramsOf(where) }))
  })
  return (
    <div className="stack">
      <section aria-labelledby="public-changelog-heading">
        <h2 id="public-changelog-heading">Changelog</h2>
        {entries.isError ? <ErrorMessage error={entries.error} what="Changelog" /> : null}
        {entries.data && entries.data.items.length === 0 ? <p>Nothing published yet.</p> : null}
        {entries.data?.items.map((entry) => (
          <article key={entry.id} className="panel" aria-label={entry.title}>
            <h3>
              <span className={`badge badge-${entry.kind}`}>{entry.kind}</span> {entry.title}
            </h3>
            <p className="muted small">{day(entry.publishedAt)}</p>
            <ServerHtml html={entry.html} />
          </article>
        ))}
      </section>
      <section aria-labelledby="public-milestones-heading">
        <h2 id="public-milestones-heading">Milestones</h2>
        {milestones.data?.items.map((milestone) => (
          <article key={milestone.id} className="panel" aria-label={milestone.name}>
            <h3>{milestone.name}</h3>
            <p className="muted small">
              {milestone.releasedAt ? `Released ${day(milestone.releasedAt)}` : milestone.date ? `Planned for ${milestone.date}` : ""}
            </p>
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
          </article>
        ))}
      </section>
    </div>
  )
}

export const Portal = () => {
  const where = useWhere()
  const link = usePortalLink()
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
