/**
 * The Lens evaluation's workspace, as data: 16 meetings (several speakers
 * each), 33 tasks and 21 wiki pages about 16 topics, plus seeded filler turns.
 * Each item has a symbolic key (`meeting:billing`, `task:billing-1`,
 * `page:billing`) that questions name; `seed.ts` creates them through the
 * platform's HTTP operations and resolves each key to its source id.
 */

export interface Turn {
  readonly speaker: string
  readonly text: string
}

export interface Meeting {
  readonly key: string
  readonly name: string
  readonly turns: ReadonlyArray<Turn>
}

export interface TaskSpec {
  readonly key: string
  readonly name: string
  readonly description: string
  readonly assignee: string
}

export interface PageSpec {
  readonly key: string
  readonly title: string
  readonly paragraphs: ReadonlyArray<string>
}

/** Workspace members (the first owns it); transcripts, tasks and pages name them. */
export const PEOPLE = ["Alice", "Bob", "Carol", "Dana", "Erin", "Farid", "Grace"] as const

const t = (speaker: string, text: string): Turn => ({ speaker, text })

export const MEETINGS: ReadonlyArray<Meeting> = [
  {
    key: "meeting:standup",
    name: "Tuesday standup",
    turns: [
      t("Dana", "Yesterday I paired with Erin on the flaky checkout tests."),
      t("Dana", "I'll ship the password reset fix to staging by Thursday."),
      t("Bob", "The nightly export job failed twice because the disk on worker three filled up."),
      t("Erin", "I'm blocked on the design review for the new settings screen."),
      t("Bob", "I'll clean up the disk on worker three today.")
    ]
  },
  {
    key: "meeting:billing",
    name: "Billing migration sync",
    turns: [
      t("Farid", "The ledger service now accepts invoices from the sandbox, but refunds still go through the old billing system."),
      t("Alice", "We decided to cut over the European customers first, on March 3."),
      t("Bob", "Farid, can you write the rollback script for the invoice tables?"),
      t("Farid", "Yes, and the reconciliation report shows a 0.4 percent mismatch that has to be explained before the cutover.")
    ]
  },
  {
    key: "meeting:mobile",
    name: "Mobile launch review",
    turns: [
      t("Carol", "The mobile app launch moves to May 12 because the app store review flagged the login screen."),
      t("Grace", "Crash-free sessions are at 99.2 percent on the beta."),
      t("Dana", "I'll rewrite the login screen copy for the app store guidelines by Monday.")
    ]
  },
  {
    key: "meeting:sso",
    name: "Enterprise SSO planning",
    turns: [
      t("Erin", "The first customer for SAML single sign-on is Northwind Traders."),
      t("Alice", "We agreed that SCIM provisioning waits until the next quarter."),
      t("Erin", "I'll set up the Okta test tenant this week.")
    ]
  },
  {
    key: "meeting:search",
    name: "Search reindex retro",
    turns: [
      t("Bob", "The reindex took nine hours because the batch size was set to fifty."),
      t("Carol", "Next time the batch size goes up to two thousand and the reindex runs on a Sunday."),
      t("Bob", "I'll add a progress bar to the reindex admin page.")
    ]
  },
  {
    key: "meeting:onboarding",
    name: "Onboarding revamp workshop",
    turns: [
      t("Grace", "New users drop off at the invite teammates step, about forty percent of them."),
      t("Dana", "The welcome checklist shrinks from nine items to four."),
      t("Alice", "I'll interview five new customers about the invite step.")
    ]
  },
  {
    key: "meeting:retention",
    name: "Data retention review",
    turns: [
      t("Farid", "Legal confirmed that call recordings are deleted after 18 months."),
      t("Erin", "Audit logs are kept for seven years because of the banking customers."),
      t("Farid", "I'll update the retention settings page by Friday.")
    ]
  },
  {
    key: "meeting:pricing",
    name: "Pricing committee",
    turns: [
      t("Carol", "The Team plan goes from 8 to 10 dollars per seat in April."),
      t("Alice", "Annual plans keep their 20 percent discount."),
      t("Bob", "Existing customers keep their current price for six months."),
      t("Carol", "I'll draft the pricing announcement email.")
    ]
  },
  {
    key: "meeting:oncall",
    name: "On-call handover",
    turns: [
      t("Dana", "The pager fired 14 times this week, mostly for the queue lag alert."),
      t("Bob", "The queue lag alert threshold goes from 30 seconds to two minutes."),
      t("Dana", "I'll write a runbook entry for the queue lag alert.")
    ]
  },
  {
    key: "meeting:outage",
    name: "Checkout outage postmortem",
    turns: [
      t("Erin", "The checkout outage lasted 47 minutes on Saturday."),
      t("Farid", "The root cause was an expired TLS certificate on the payment gateway."),
      t("Carol", "Erin, can you automate the certificate renewal?"),
      t("Farid", "About 1,200 orders failed during the outage.")
    ]
  },
  {
    key: "meeting:hiring",
    name: "Support hiring sync",
    turns: [
      t("Grace", "We have two open roles for support engineers in Lisbon."),
      t("Alice", "The take-home exercise is replaced by a paid trial day."),
      t("Grace", "I'll publish the support engineer job posts on Monday.")
    ]
  },
  {
    key: "meeting:analytics",
    name: "Analytics dashboard demo",
    turns: [
      t("Carol", "The new dashboard shows weekly active teams instead of daily active users."),
      t("Erin", "The churn chart still double counts workspaces that were merged."),
      t("Carol", "I'll fix the double counting in the churn chart.")
    ]
  },
  {
    key: "meeting:api",
    name: "API rate limits discussion",
    turns: [
      t("Farid", "Partners hit the limit of 600 requests per minute during imports."),
      t("Bob", "We agreed to raise the limit to 1,500 requests per minute for the partner tier."),
      t("Dana", "I'll add rate limit headers to every response.")
    ]
  },
  {
    key: "meeting:l10n",
    name: "German localization kickoff",
    turns: [
      t("Grace", "The agency translates the web app into German by the end of June."),
      t("Carol", "Date formats follow the user's locale, not the workspace's."),
      t("Grace", "I'll send the glossary to the translation agency.")
    ]
  },
  {
    key: "meeting:soc2",
    name: "SOC 2 audit prep",
    turns: [
      t("Alice", "The auditor starts fieldwork on September 9."),
      t("Erin", "Access reviews are missing for the last two quarters."),
      t("Farid", "I'll collect the evidence for the vendor reviews.")
    ]
  },
  {
    key: "meeting:design",
    name: "Design system sync",
    turns: [
      t("Dana", "The button component now has four sizes instead of six."),
      t("Grace", "Dark mode colors fail contrast checks on the sidebar."),
      t("Dana", "I'll fix the sidebar contrast in dark mode.")
    ]
  }
]

const task = (key: string, name: string, assignee: string, description: string): TaskSpec => ({ key, name, assignee, description })

export const TASKS: ReadonlyArray<TaskSpec> = [
  task("task:standup-1", "Ship the password reset fix to staging", "Dana", "Users on the old mobile app cannot reset their password."),
  task("task:standup-2", "Clean up the disk on worker three", "Bob", "The nightly export job needs free space on worker three."),
  task(
    "task:billing-1",
    "Write the rollback script for the invoice tables",
    "Farid",
    "Needed before the cutover of the billing migration."
  ),
  task(
    "task:billing-2",
    "Move refunds to the ledger service",
    "Bob",
    "Refunds still use the legacy billing system; blocked until the ledger refund API is released."
  ),
  task(
    "task:billing-3",
    "Set up billing alerts in the ledger service",
    "Bob",
    "Alert when daily invoice totals differ by more than 1 percent."
  ),
  task(
    "task:mobile-1",
    "Rewrite the login screen copy for the app store",
    "Dana",
    "The app store review flagged the wording of the login screen."
  ),
  task("task:mobile-2", "Prepare the mobile launch press kit", "Carol", "Screenshots, a short video and the founder quote."),
  task(
    "task:mobile-3",
    "Add push notification opt-in to the mobile app",
    "Dana",
    "Ask for permission after the first completed task, not at install."
  ),
  task("task:sso-1", "Set up the Okta test tenant", "Erin", "For testing SAML single sign-on end to end."),
  task(
    "task:sso-2",
    "Support SAML login for Northwind Traders",
    "Erin",
    "Northwind Traders is the first enterprise customer on single sign-on."
  ),
  task("task:search-1", "Add a progress bar to the reindex admin page", "Bob", "Show documents indexed and the time left."),
  task("task:onboarding-1", "Shrink the welcome checklist to four items", "Dana", "Keep: profile, first project, invite, integrations."),
  task("task:retention-1", "Update the retention settings page", "Farid", "Show the 18 month limit for call recordings."),
  task(
    "task:pricing-1",
    "Draft the pricing announcement email",
    "Carol",
    "Explain the Team plan change and the six months of price protection."
  ),
  task("task:oncall-1", "Tune the queue lag alert threshold", "Bob", "Raise the threshold to two minutes."),
  task(
    "task:outage-1",
    "Automate the certificate renewal",
    "Erin",
    "Renew certificates of the payment gateway automatically, 30 days before expiry."
  ),
  task("task:hiring-1", "Publish the support engineer job posts", "Grace", "Two roles in Lisbon."),
  task("task:analytics-1", "Fix double counting in the churn chart", "Carol", "Merged workspaces are counted twice."),
  task("task:api-1", "Raise the partner tier rate limit", "Farid", "From 600 to 1,500 requests per minute."),
  task("task:l10n-1", "Send the glossary to the translation agency", "Grace", "The glossary has 240 product terms."),
  task("task:l10n-2", "Localize the onboarding emails into German", "Grace", "Five emails, reviewed by the German sales team."),
  task(
    "task:soc2-1",
    "Collect evidence for the vendor reviews",
    "Farid",
    "The auditor wants the review of every vendor with customer data."
  ),
  task("task:design-1", "Fix the sidebar contrast in dark mode", "Dana", "Text on the sidebar must reach a contrast ratio of 4.5."),
  task("task:lease", "Renew the Lisbon office lease", "Alice", "The lease ends on October 31; the landlord offered a 3 percent increase."),
  task("task:postgres", "Upgrade PostgreSQL to version 17", "Bob", "Planned for the maintenance window on the first Sunday of next month."),
  task(
    "task:statuspage",
    "Replace the status page vendor",
    "Farid",
    "The current vendor missed two incidents; the shortlist is Statuspal and Instatus."
  ),
  task("task:survey", "Run the quarterly customer survey", "Grace", "The survey goes to 3,000 admins; the response goal is 15 percent."),
  task("task:channels", "Archive unused chat channels", "Erin", "Channels without a message in 90 days are archived."),
  task("task:ci", "Migrate CI to ARM runners", "Bob", "ARM runners cut build minutes by a third."),
  task("task:changelog", "Write the partner API changelog", "Farid", "Publish it on the developer portal every month."),
  task("task:deck", "Refresh the sales deck", "Carol", "Add the new pricing and the Northwind case study."),
  task("task:offsite", "Plan the team offsite in Porto", "Alice", "The offsite is on June 18 and 19 for 24 people."),
  task("task:cookies", "Audit third-party cookies on the website", "Erin", "Remove every cookie that has no consent category.")
]

const page = (key: string, title: string, ...paragraphs: ReadonlyArray<string>): PageSpec => ({ key, title, paragraphs })

export const PAGES: ReadonlyArray<PageSpec> = [
  page(
    "page:billing",
    "Billing migration plan",
    "The billing migration moves all invoices from the legacy billing system to the ledger service.",
    "European customers are cut over first, then North America two weeks later.",
    "Rollback stays possible until the reconciliation mismatch is below 0.1 percent."
  ),
  page(
    "page:mobile",
    "Mobile launch checklist",
    "Store listing screenshots are made in English, German and Japanese.",
    "The launch needs crash-free sessions above 99 percent for a week."
  ),
  page(
    "page:sso",
    "Single sign-on guide",
    "Admins enable SAML under the security tab of the workspace settings.",
    "Each workspace may connect one identity provider."
  ),
  page(
    "page:search",
    "Search architecture",
    "Search uses one index per workspace, rebuilt nightly.",
    "Queries time out after two seconds."
  ),
  page(
    "page:onboarding",
    "Onboarding playbook",
    "Every new customer gets a kickoff call within three days.",
    "The onboarding buddy for enterprise accounts is a solutions engineer."
  ),
  page(
    "page:retention",
    "Data retention policy",
    "Call recordings are deleted after 18 months.",
    "Audit logs are kept for seven years.",
    "Backups are kept for 35 days."
  ),
  page(
    "page:pricing",
    "Pricing tiers",
    "Free, Team and Enterprise are the three plans.",
    "Enterprise includes single sign-on and audit logs."
  ),
  page(
    "page:oncall",
    "On-call runbook",
    "The primary on-call acknowledges a page within 15 minutes.",
    "Escalate to the secondary after 30 minutes without progress."
  ),
  page(
    "page:incident",
    "Incident process",
    "Every incident above severity two gets a postmortem within five working days.",
    "Postmortems are blameless and list the follow-up actions with owners."
  ),
  page(
    "page:metrics",
    "Metrics definitions",
    "A weekly active team is a workspace with three or more active members in a week.",
    "Churn counts workspaces that cancel a paid plan."
  ),
  page("page:api", "API guidelines", "Every API response carries a request id.", "Pagination uses cursors, never page numbers."),
  page("page:l10n", "Localization guide", "Strings live in one catalog per language.", "Never concatenate translated strings."),
  page("page:security", "Security handbook", "Laptops must use full disk encryption.", "Access reviews happen every quarter."),
  page("page:design", "Design tokens", "Spacing uses a four pixel grid.", "The primary color is indigo 600."),
  page(
    "page:expenses",
    "Expense policy",
    "Meals while travelling are reimbursed up to 60 euros a day.",
    "Receipts are submitted within 30 days."
  ),
  page(
    "page:office",
    "Lisbon office guide",
    "The office opens at 8 and the door code changes every month.",
    "Guests sign in at the front desk."
  ),
  page("page:release", "Release process", "Releases ship on Tuesdays and Thursdays.", "A release needs two approvals."),
  page(
    "page:holidays",
    "Holiday calendar",
    "The company is closed between December 24 and January 1.",
    "Each employee has 25 vacation days."
  ),
  page(
    "page:codereview",
    "Code review guidelines",
    "Reviews are answered within one working day.",
    "Pull requests stay under 400 changed lines."
  ),
  page("page:hiring", "Hiring handbook", "Every candidate meets two interviewers and one future teammate.", "Offers go out within a week."),
  page("page:brand", "Brand voice", "Write in plain words and short sentences.", "Product names are never abbreviated.")
]

/** Turns that carry no fact and commit nobody (no "I'll", "we need to", no leading verb), to make meetings read like meetings. */
const FILLER = [
  "Good morning, everyone.",
  "That sounds reasonable to me.",
  "I agree with that.",
  "Sorry, my connection dropped for a second.",
  "Does anyone have questions about that?",
  "Nothing else from my side.",
  "The numbers look similar to last month.",
  "That matches what I heard from customers.",
  "Okay, that is all for today."
]

/** mulberry32: a small seeded generator, so every run builds the same workspace. */
export const seeded = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let r = Math.imul(a ^ (a >>> 15), 1 | a)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

export interface Segment {
  readonly speaker: string
  readonly startMs: number
  readonly endMs: number
  readonly text: string
}

/** The meeting's turns with seeded filler turns between them (by other speakers of the meeting), as timed segments. */
export const transcriptOf = (meeting: Meeting, random: () => number): Array<Segment> => {
  const speakers = [...new Set(meeting.turns.map((turn) => turn.speaker))]
  const turns: Array<Turn> = [t(speakers[0]!, FILLER[0]!)]
  for (const turn of meeting.turns) {
    turns.push(turn)
    if (random() < 0.6) {
      const speaker = speakers[Math.floor(random() * speakers.length)]!
      turns.push(t(speaker, FILLER[1 + Math.floor(random() * (FILLER.length - 2))]!))
    }
  }
  turns.push(t(speakers[speakers.length - 1]!, FILLER[FILLER.length - 1]!))
  return turns.map((turn, i) => ({ speaker: turn.speaker, startMs: i * 6000, endMs: i * 6000 + 5500, text: turn.text }))
}

/** A meeting for the latency workspace: one of the 16, renamed and its turns' order varied by the seed. */
export const latencyMeeting = (i: number, random: () => number): { name: string; segments: Array<Segment> } => {
  const meeting = MEETINGS[i % MEETINGS.length]!
  return { name: `${meeting.name} #${Math.floor(i / MEETINGS.length) + 1}`, segments: transcriptOf(meeting, random) }
}
