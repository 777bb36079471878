/**
 * Wiki search (`searchWiki`): a form that puts the query in the URL
 * (`wiki/search?q=…&space=…`), and the ranked results with the server's
 * highlighted title and snippet. The server escapes the page text and wraps
 * only the matches in `<mark>`, so those two strings are shown as given.
 */
import { type FormEvent, useEffect } from "react"
import { Link, useNavigate, useParams, useSearchParams } from "react-router"
import { $api } from "../../api/client.ts"
import { pageHref } from "../common/links.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

export const SearchForm = ({ spaceId }: { readonly spaceId?: string }) => {
  const { workspaceId = "" } = useParams()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const q = String(new FormData(event.currentTarget).get("q") ?? "").trim()
    if (q === "") return
    navigate(`/w/${workspaceId}/wiki/search?${new URLSearchParams({ q, ...(spaceId ? { space: spaceId } : {}) })}`)
  }
  return (
    <search className="wiki-search">
      <form className="inline-form" onSubmit={submit}>
        <label className="field">
          <span>Search the wiki</span>
          <input type="search" name="q" defaultValue={params.get("q") ?? ""} required maxLength={500} />
        </label>
        <button type="submit">Search</button>
      </form>
    </search>
  )
}

export const SearchResults = () => {
  const { workspaceId = "" } = useParams()
  const [params] = useSearchParams()
  const q = params.get("q") ?? ""
  const spaceId = params.get("space") ?? undefined
  const results = $api.useQuery(
    "get",
    "/wiki/v1/search",
    { params: { query: { workspaceId, q, ...(spaceId ? { spaceId } : {}), limit: "20" } } },
    { enabled: q !== "" }
  )
  useEffect(() => {
    document.title = `Search: ${q} · Wiki · Atrium`
  }, [q])
  return (
    <section className="area-page" aria-labelledby="search-title">
      <p className="breadcrumb">
        <Link to={spaceId ? `/w/${workspaceId}/wiki/${spaceId}` : `/w/${workspaceId}/wiki`}>
          {spaceId ? "Back to the space" : "All spaces"}
        </Link>
      </p>
      <h1 id="search-title">Search the wiki</h1>
      <SearchForm {...(spaceId ? { spaceId } : {})} />
      {results.error ? <ErrorMessage error={results.error} what="The search failed" /> : null}
      {results.isFetching && q !== "" ? <Loading what="results" /> : null}
      {results.data ? (
        <>
          <p role="status">
            {results.data.total === 0
              ? `No page matches “${q}”.`
              : `${results.data.total} ${results.data.total === 1 ? "page matches" : "pages match"} “${q}”.`}
          </p>
          <ol className="card-list search-results" aria-label="Search results">
            {results.data.results.map((result) => (
              <li key={result.pageId} className="panel">
                <Link to={pageHref(workspaceId, result.spaceId, result.pageId)} className="card-title">
                  {result.icon ? `${result.icon} ` : ""}
                  <span dangerouslySetInnerHTML={{ __html: result.titleHighlight }} />
                </Link>{" "}
                <span className="muted small">{result.spaceName}</span>
                <p className="snippet" dangerouslySetInnerHTML={{ __html: result.snippet }} />
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}
