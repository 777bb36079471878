/**
 * The Lens evaluation set: questions over the workspace of `workspace.ts`,
 * each with the sources that answer it (symbolic keys, resolved to source ids
 * once the workspace exists), the route it should take, and answer fragments
 * (a citation is correct when its snippet contains one of them). Unanswerable
 * questions must be declined. Questions alternate between two halves: the
 * engine's rules were tuned looking only at the "tuning" half's failures; the
 * "held-out" half is reported apart.
 */
import type { Route } from "../../actors/lens/Router.ts"

export interface Question {
  readonly text: string
  readonly route: Route
  /** Keys of `workspace.ts` (meeting:…, task:…, page:…); a meeting key stands for its transcript and its call notes. */
  readonly sources: ReadonlyArray<string>
  /** A correct citation's snippet contains one of these (case-insensitive). */
  readonly answer: ReadonlyArray<string>
}

const q = (route: Route, text: string, sources: ReadonlyArray<string>, ...answer: ReadonlyArray<string>): Question => ({
  text,
  route,
  sources,
  answer
})

const UNTRACKED = ["meeting:onboarding", "meeting:oncall", "meeting:api"]
const UNTRACKED_ITEMS = ["interview five new customers", "runbook entry for the queue lag alert", "rate limit headers"]

export const ANSWERABLE: ReadonlyArray<Question> = [
  // single: one meeting answers
  q("single", "What did Dana promise in Tuesday's standup?", ["meeting:standup"], "password reset fix"),
  q("single", "Why did the nightly export job fail, according to the standup?", ["meeting:standup"], "worker three"),
  q("single", "Which customers did the billing migration sync decide to cut over first?", ["meeting:billing"], "European customers"),
  q("single", "In the mobile launch review, why did the launch move?", ["meeting:mobile"], "app store review flagged"),
  q("single", "What crash-free rate did Grace report in the mobile launch review?", ["meeting:mobile"], "99.2 percent"),
  q("single", "Who is the first single sign-on customer mentioned in the SSO planning meeting?", ["meeting:sso"], "Northwind Traders"),
  q("single", "Why did the search reindex take so long, as discussed in the retro?", ["meeting:search"], "batch size"),
  q("single", "At which step do new users drop off, according to the onboarding workshop?", ["meeting:onboarding"], "invite teammates"),
  q("single", "How many times did the pager fire, as said in the on-call handover?", ["meeting:oncall"], "14 times"),
  q("single", "What was the root cause of the checkout outage discussed in the postmortem?", ["meeting:outage"], "expired TLS certificate"),
  q("single", "How many orders failed during the checkout outage, per the postmortem meeting?", ["meeting:outage"], "1,200 orders"),
  q("single", "What did Carol say about the Team plan price in the pricing committee?", ["meeting:pricing"], "10 dollars"),
  q("single", "What limit did partners hit during imports, as discussed in the API rate limits call?", ["meeting:api"], "600 requests"),
  q("single", "When does the auditor start fieldwork, as mentioned in the SOC 2 audit prep meeting?", ["meeting:soc2"], "September 9"),
  q("single", "What did Grace say about dark mode in the design system sync?", ["meeting:design"], "contrast checks"),
  q(
    "single",
    "Where are the open support roles, as discussed in the support hiring sync?",
    ["meeting:hiring"],
    "support engineers in Lisbon"
  ),
  q("single", "What replaced the take-home exercise, according to the hiring meeting?", ["meeting:hiring"], "paid trial day"),
  q("single", "What did Erin say the churn chart still gets wrong in the analytics demo?", ["meeting:analytics"], "double counts"),
  // single: one task answers
  q("single", "Who is assigned the task to write the rollback script for the invoice tables?", ["task:billing-1"], "Farid"),
  q("single", "What is blocking the task to move refunds to the ledger service?", ["task:billing-2"], "ledger refund API"),
  q("single", "When does the Lisbon office lease end, according to the task?", ["task:lease"], "October 31"),
  q("single", "Which vendors are on the shortlist in the status page task?", ["task:statuspage"], "Statuspal"),
  q("single", "What is the response goal of the customer survey task?", ["task:survey"], "15 percent"),
  q("single", "Who owns the task to automate the certificate renewal?", ["task:outage-1"], "Erin"),
  q("single", "How much do ARM runners cut build minutes, according to the CI task?", ["task:ci"], "a third"),
  q("single", "What should the ticket to refresh the sales deck add?", ["task:deck"], "Northwind case study"),
  q("single", "When is the maintenance window for the PostgreSQL upgrade task?", ["task:postgres"], "first Sunday"),
  q("single", "Who is working on fixing the sidebar contrast in dark mode?", ["task:design-1"], "Dana"),
  // single: one wiki page answers
  q("single", "According to the billing migration plan page, when is rollback still possible?", ["page:billing"], "below 0.1 percent"),
  q("single", "What does the data retention policy say about backups?", ["page:retention"], "35 days"),
  q("single", "How quickly must the primary on-call acknowledge a page, per the runbook?", ["page:oncall"], "15 minutes"),
  q("single", "What does the security handbook require for laptops?", ["page:security"], "full disk encryption"),
  q("single", "How much are meals reimbursed according to the expense policy?", ["page:expenses"], "60 euros"),
  q("single", "What is the spacing grid in the design tokens doc?", ["page:design"], "four pixel grid"),
  q("single", "On which days do releases ship, according to the release process page?", ["page:release"], "Tuesdays and Thursdays"),
  q("single", "How many vacation days does each employee get, per the holiday calendar?", ["page:holidays"], "25 vacation days"),
  q(
    "single",
    "What is a weekly active team according to the metrics definitions in the wiki?",
    ["page:metrics"],
    "three or more active members"
  ),
  q("single", "What do the API guidelines say about pagination?", ["page:api"], "cursors"),
  q("single", "How fast should pull requests get a review, per the code review guidelines?", ["page:codereview"], "one working day"),
  // fan-out: several sources answer together
  q(
    "fan_out",
    "What is the status of the billing migration?",
    ["meeting:billing", "task:billing-1", "task:billing-2", "page:billing"],
    "billing",
    "ledger",
    "invoice",
    "refund"
  ),
  q(
    "fan_out",
    "Where are we with the mobile app launch?",
    ["meeting:mobile", "task:mobile-1", "task:mobile-2", "page:mobile"],
    "mobile",
    "launch",
    "login screen",
    "crash-free"
  ),
  q(
    "fan_out",
    "Give me an overview of enterprise single sign-on.",
    ["meeting:sso", "task:sso-1", "task:sso-2", "page:sso"],
    "SAML",
    "single sign-on",
    "Okta",
    "Northwind",
    "identity provider"
  ),
  q("fan_out", "How is the SOC 2 audit going?", ["meeting:soc2", "task:soc2-1"], "audit", "access reviews", "evidence", "fieldwork"),
  q(
    "fan_out",
    "What's the latest on the German localization?",
    ["meeting:l10n", "task:l10n-1", "task:l10n-2", "page:l10n"],
    "German",
    "glossary",
    "translat",
    "locale",
    "catalog"
  ),
  q(
    "fan_out",
    "Summarize everything we know about the checkout outage.",
    ["meeting:outage", "task:outage-1"],
    "outage",
    "certificate",
    "checkout"
  ),
  q(
    "fan_out",
    "What is the status of the data retention work?",
    ["meeting:retention", "task:retention-1", "page:retention"],
    "retention",
    "18 months",
    "seven years",
    "35 days"
  ),
  q("fan_out", "Any update on the API rate limits?", ["meeting:api", "task:api-1"], "rate limit", "requests per minute"),
  // agent: look up, compare, then act
  q("agent", "Which of last week's action items have no task yet? Create them.", UNTRACKED, ...UNTRACKED_ITEMS),
  q("agent", "Create tasks for the action items from our meetings that nobody has filed yet.", UNTRACKED, ...UNTRACKED_ITEMS),
  q("agent", "Which commitments from this week's meetings are still missing a task?", UNTRACKED, ...UNTRACKED_ITEMS),
  q("agent", "Find the follow-ups from our calls that have no ticket and open tickets for them.", UNTRACKED, ...UNTRACKED_ITEMS)
]

/** Nothing in the workspace answers these; some share words (people, meetings, tasks) with what is there. */
export const UNANSWERABLE: ReadonlyArray<string> = [
  "What did Dana promise about the Kubernetes upgrade?",
  "What is the status of the Salesforce integration?",
  "Who is assigned the task to migrate the mainframe?",
  "What does the wiki say about parental leave?",
  "How many users signed up from the Tokyo office last quarter?",
  "What did the board decide about acquiring Globex?",
  "What is the capital of Mongolia?"
]

export type Half = "tuning" | "held-out"

/** Alternating halves, so each route and source kind is in both. */
export const halfOf = (index: number): Half => (index % 2 === 0 ? "tuning" : "held-out")
