/**
 * The second Lens evaluation set, written apart from the first (`workspace.ts`, `questions.ts`) and in another
 * style: a freight-logistics company's meetings, tasks and pages, where the asked fact (a date, a figure, a
 * reason, a person) usually sits in the sentence NEXT to the one that shares the question's words, among
 * distractor sentences about the same topic that hold another fact of the same kind. It scores whether the
 * answer contains the asked fact ("answer accuracy"), not only whether the right source is cited.
 * Questions alternate between a tuning half and a held-out half; the engine is tuned on the tuning half's
 * failures only, the held-out half's figures are read as they come.
 */
import type { Route } from "../../actors/lens/Router.ts"
import type { Meeting, PageSpec, TaskSpec } from "./workspace.ts"

export const FACT_PEOPLE = ["Priya", "Mateo", "Ines", "Tomasz", "Yuki", "Kwame", "Sofia"] as const

const t = (speaker: string, text: string) => ({ speaker, text })

export const FACT_MEETINGS: ReadonlyArray<Meeting> = [
  {
    key: "meeting:brightwater",
    name: "Brightwater escalation call",
    turns: [
      t("Ines", "Thanks for joining on short notice. The nightly imports for Brightwater have failed four nights in a row."),
      t("Kwame", "Our warehouse team had to re-key about 900 shipments by hand, which is painful."),
      t("Ines", "Understood. The failures come from the carrier feed changing its date format without notice."),
      t("Priya", "To make up for it, we will credit Brightwater 15 percent of this month's invoice."),
      t("Kwame", "That helps. When will the importer handle the new format?"),
      t("Tomasz", "The parser fix ships on Thursday, and we backfill the missed nights over the weekend.")
    ]
  },
  {
    key: "meeting:frontend",
    name: "Frontend hiring sync",
    turns: [
      t("Sofia", "Good news first: Mateo Ruiz accepted the staff frontend engineer offer."),
      t("Yuki", "Great. What did we land on for the start date?"),
      t("Sofia", "He starts on March 3, once his notice period is over."),
      t("Yuki", "The design systems role is still open, with two candidates in the final round."),
      t("Sofia", "Finance raised the budget for the design systems role to 140,000 euros.")
    ]
  },
  {
    key: "meeting:incident",
    name: "Security incident review",
    turns: [
      t("Kwame", "On Friday someone pushed a staging API token to the public docs repository."),
      t("Kwame", "The scanner flagged it, but we only noticed it about six hours later."),
      t("Ines", "The token could read staging data only; production was never exposed."),
      t("Tomasz", "We rotated every staging credential the same afternoon."),
      t("Ines", "Going forward we want pre-commit secret scanning on every repository.")
    ]
  },
  {
    key: "meeting:atlas",
    name: "Atlas 3.0 launch sync",
    turns: [
      t("Priya", "We're moving the Atlas 3.0 launch to April 9."),
      t("Mateo", "That's a three-week slip from the original date."),
      t("Priya", "The reason is that the payment provider needs two more weeks to certify our checkout flow."),
      t("Sofia", "Marketing will shift the webinar to April 10 so it follows the launch.")
    ]
  },
  {
    key: "meeting:berlin",
    name: "Berlin office move",
    turns: [
      t("Yuki", "The movers come on the 14th, and the new office opens the Monday after."),
      t("Tomasz", "Who deals with the landlord of the old Berlin office for the handover?"),
      t("Priya", "I'll handle the landlord; the inspection is already booked."),
      t("Yuki", "The deposit we get back should be around 8,000 euros.")
    ]
  },
  {
    key: "meeting:costs",
    name: "Infrastructure cost review",
    turns: [
      t("Tomasz", "The staging VPC change is merged."),
      t("Tomasz", "It adds two NAT gateways, so staging now costs us about 340 dollars more per month."),
      t("Kwame", "Compute spend went down 12 percent after the ARM migration."),
      t("Ines", "Let's revisit the reserved instances in June.")
    ]
  },
  {
    key: "meeting:standup",
    name: "Tuesday standup",
    turns: [
      t("Mateo", "I finished the carrier rate cards and opened the pull request."),
      t("Sofia", "I'll update the onboarding checklist for new drivers."),
      t("Yuki", "I'll draft the customs FAQ for the help center."),
      t("Kwame", "I need to renew the SSL certificate for the tracking portal before Friday.")
    ]
  },
  {
    key: "meeting:advisory",
    name: "Customer advisory board",
    turns: [
      t("Ines", "Three customers asked for a Spanish language driver app."),
      t("Priya", "Harbor Freight wants bulk label printing more than anything else."),
      t("Ines", "Cold-chain customers keep asking about temperature alerts."),
      t("Mateo", "The temperature alerts beta starts in May with two pilot customers.")
    ]
  },
  {
    key: "meeting:pricing",
    name: "Pricing review",
    turns: [
      t("Sofia", "The Growth plan moves from 49 to 59 dollars per seat."),
      t("Priya", "Existing customers keep their old price for twelve months."),
      t("Kwame", "We're doing it because support costs per seat doubled since last year.")
    ]
  },
  {
    key: "meeting:partner",
    name: "Warehouse API partner call",
    turns: [
      t("Yuki", "Nordlys Logistics is the first partner to integrate the warehouse API."),
      t("Tomasz", "During their first sync they hit our rate limit at 300 requests per minute."),
      t("Yuki", "We'll raise their limit to 1,000 requests per minute next week.")
    ]
  }
]

const task = (key: string, name: string, description: string, assignee: string): TaskSpec => ({ key, name, description, assignee })

export const FACT_TASKS: ReadonlyArray<TaskSpec> = [
  task(
    "task:scanning",
    "Add pre-commit secret scanning to all repositories",
    "Block commits that contain credentials; start with the docs and infra repositories.",
    "Yuki"
  ),
  task(
    "task:ssl",
    "Renew the SSL certificate for the tracking portal",
    "The certificate expires on the 28th; use the DNS challenge.",
    "Kwame"
  ),
  task(
    "task:backfill",
    "Backfill the missed Brightwater import nights",
    "Re-run the importer for the four failed nights once the parser fix is out.",
    "Tomasz"
  ),
  task(
    "task:certification",
    "Prepare the Atlas 3.0 certification checklist",
    "The payment provider wants screenshots of every checkout step.",
    "Mateo"
  ),
  task("task:movers", "Book the movers for the Berlin office", "The quote from Umzug Schmidt came in at 4,200 euros.", "Yuki")
]

const page = (key: string, title: string, ...paragraphs: ReadonlyArray<string>): PageSpec => ({ key, title, paragraphs })

export const FACT_PAGES: ReadonlyArray<PageSpec> = [
  page(
    "page:safety",
    "Driver safety policy",
    "Drivers log every pre-trip inspection in the app. Missing two inspections in a month triggers a coaching session with the fleet lead.",
    "Speed alerts fire above 90 km/h on highways."
  ),
  page(
    "page:travel",
    "Field staff travel",
    "Field staff book hotels through the travel portal. The nightly hotel cap is 130 euros in most cities and 180 euros in London and Paris.",
    "Receipts are due within 30 days of the trip."
  ),
  page(
    "page:dispatch",
    "Dispatch on-call handbook",
    "The dispatch on-call rotation changes every Monday at 10:00.",
    "The secondary takes over if the primary does not acknowledge a page within ten minutes."
  )
]

export interface FactQuestion {
  readonly text: string
  readonly route: Route
  /** Keys of the sources that answer it. */
  readonly sources: ReadonlyArray<string>
  /** The answer must contain one form of EACH group (a two-part question has two groups). Case-insensitive. */
  readonly forms: ReadonlyArray<ReadonlyArray<string>>
  /** A question that names one meeting: every citation must come from it. */
  readonly scopedTo?: string
}

const f = (
  route: Route,
  text: string,
  sources: ReadonlyArray<string>,
  forms: ReadonlyArray<ReadonlyArray<string>>,
  scopedTo?: string
): FactQuestion => ({ route, text, sources, forms, ...(scopedTo ? { scopedTo } : {}) })

export const FACT_ANSWERABLE: ReadonlyArray<FactQuestion> = [
  f("fan_out", "How are we compensating Brightwater for the failed nightly imports?", ["meeting:brightwater"], [["15 percent", "15%"]]),
  f("fan_out", "Why did the Brightwater imports break?", ["meeting:brightwater"], [["date format"]]),
  f("fan_out", "When does the importer fix ship?", ["meeting:brightwater"], [["Thursday"]]),
  f("fan_out", "How many shipments did Brightwater re-key by hand?", ["meeting:brightwater"], [["900"]]),
  f("fan_out", "When does the new staff frontend engineer start?", ["meeting:frontend"], [["March 3"]]),
  f("fan_out", "Who accepted the staff frontend engineer offer?", ["meeting:frontend"], [["Mateo Ruiz"]]),
  f("fan_out", "How many candidates are in the final round for the design systems role?", ["meeting:frontend"], [["two"]]),
  f("fan_out", "What is the budget for the design systems role?", ["meeting:frontend"], [["140,000"]]),
  f(
    "fan_out",
    "How long did it take to detect the leaked staging token, and who is assigned the pre-commit secret scanning task?",
    ["meeting:incident", "task:scanning"],
    [["six hours"], ["Yuki"]]
  ),
  f("fan_out", "Was production exposed by the leaked staging token?", ["meeting:incident"], [["never exposed"]]),
  f("fan_out", "When were the staging credentials rotated?", ["meeting:incident"], [["same afternoon"]]),
  f("fan_out", "Why was the Atlas 3.0 launch moved to April 9?", ["meeting:atlas"], [["certify", "payment provider"]]),
  f("fan_out", "How long is the Atlas 3.0 slip?", ["meeting:atlas"], [["three-week", "three week"]]),
  f("fan_out", "When is the Atlas webinar now?", ["meeting:atlas"], [["April 10"]]),
  f("fan_out", "Who is handling the handover with the landlord of the old Berlin office?", ["meeting:berlin"], [["Priya"]]),
  f("fan_out", "How much of the deposit do we expect back for the old Berlin office?", ["meeting:berlin"], [["8,000"]]),
  f("fan_out", "When do the movers come for the Berlin office?", ["meeting:berlin"], [["14th"]]),
  f("fan_out", "How much extra does the staging VPC cost us per month?", ["meeting:costs"], [["340"]]),
  f("fan_out", "By how much did compute spend drop after the ARM migration?", ["meeting:costs"], [["12 percent"]]),
  f("fan_out", "When will we revisit the reserved instances?", ["meeting:costs"], [["June"]]),
  f(
    "single",
    "What did Kwame say he needs to renew in the Tuesday standup?",
    ["meeting:standup"],
    [["SSL certificate"]],
    "meeting:standup"
  ),
  f("single", "What did Yuki promise in the Tuesday standup?", ["meeting:standup"], [["customs FAQ"]], "meeting:standup"),
  f("fan_out", "Which customer wants bulk label printing?", ["meeting:advisory"], [["Harbor Freight"]]),
  f("fan_out", "How many customers asked for a Spanish driver app?", ["meeting:advisory"], [["Three"]]),
  f("fan_out", "When does the temperature alerts beta start?", ["meeting:advisory"], [["May"]]),
  f(
    "single",
    "In the customer advisory board meeting, what do cold-chain customers keep asking about?",
    ["meeting:advisory"],
    [["temperature alerts"]],
    "meeting:advisory"
  ),
  f("fan_out", "What will the Growth plan cost per seat?", ["meeting:pricing"], [["59"]]),
  f("fan_out", "How long do existing customers keep their old price?", ["meeting:pricing"], [["twelve months"]]),
  f("fan_out", "Why are we raising the Growth plan price?", ["meeting:pricing"], [["support costs"]]),
  f("fan_out", "Which partner is integrating the warehouse API first?", ["meeting:partner"], [["Nordlys"]]),
  f("fan_out", "What rate limit did the warehouse API partner hit?", ["meeting:partner"], [["300"]]),
  f(
    "single",
    "What did Tomasz say about the staging VPC in the infrastructure cost review?",
    ["meeting:costs"],
    [["340", "NAT gateways", "merged"]],
    "meeting:costs"
  ),
  f("single", "How much was the movers' quote for the Berlin office task?", ["task:movers"], [["4,200"]]),
  f("single", "Who owns the task to renew the SSL certificate for the tracking portal?", ["task:ssl"], [["Kwame"]]),
  f("single", "When does the tracking portal certificate expire, according to the task?", ["task:ssl"], [["28th"]]),
  f(
    "fan_out",
    "When does the importer fix ship, and who is backfilling the missed Brightwater nights?",
    ["meeting:brightwater", "task:backfill"],
    [["Thursday"], ["Tomasz"]]
  ),
  f(
    "fan_out",
    "Why was the Atlas launch moved, and who prepares the certification checklist task?",
    ["meeting:atlas", "task:certification"],
    [["certify", "payment provider"], ["Mateo"]]
  ),
  f("single", "What happens when a driver misses two inspections in a month, per the safety policy?", ["page:safety"], [["coaching"]]),
  f("single", "At what speed do speed alerts fire, according to the driver safety policy?", ["page:safety"], [["90"]]),
  f("single", "What is the hotel cap in London, according to the travel page?", ["page:travel"], [["180"]]),
  f("single", "How long do field staff have to submit receipts, per the travel page?", ["page:travel"], [["30 days"]]),
  f("single", "When does the dispatch on-call rotation change, according to the handbook?", ["page:dispatch"], [["Monday"]]),
  f("single", "How quickly must the primary acknowledge a dispatch page, per the handbook?", ["page:dispatch"], [["ten minutes"]]),
  f(
    "agent",
    "Which action items from the Tuesday standup have no task yet?",
    ["meeting:standup"],
    [["onboarding checklist"], ["customs FAQ"]],
    "meeting:standup"
  )
]

/**
 * The topic is in the workspace, the asked fact is not: each must be declined (no citation), some with a
 * distractor of the asked type nearby.
 */
export const FACT_NEAR_MISSES: ReadonlyArray<string> = [
  "How many screens does the new driver onboarding checklist have?",
  "When did Harbor Freight sign their contract?",
  "Why did Nordlys choose our warehouse API?",
  "Who approved the Growth plan price change?",
  "What salary did Mateo Ruiz accept?",
  "How much did the Berlin office inspection cost?"
]

/** Question i's half: alternating, as in the first set. */
export const factHalfOf = (index: number): "tuning" | "held-out" => (index % 2 === 0 ? "tuning" : "held-out")
