/** hub meeting bots and vendor calls (Videomeet Bot 4, Videomeet Call 6, Workchat Call 9, Suite Call 9), billing (Hub Billing 6, Subscription 2, Payment Webhook 1). */
import { MeetingBots } from "../../../actors/hub/meetings/MeetingBots.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import type { AnyOperation } from "../../Operation.ts"
import { hubBillingOperations } from "../billing/HubBilling.ts"
import { hubPaymentWebhookOperations } from "../billing/PaymentWebhook.ts"
import { subscriptionOperations } from "../billing/Subscription.ts"
import { botEventOperations } from "./BotEvents.ts"
import { vendorCallOperations } from "./VendorCalls.ts"
import { videomeetBotOperations } from "./VideomeetBots.ts"

const everyOperation = ["list", "get", "transcript", "import", "link", "unlink", "links", "startBot", "stopBot"] as const

export const hubMeetingActorKinds: ReadonlyArray<ActorKind> = [MeetingBots]

export const hubMeetingOperations: ReadonlyArray<AnyOperation> = [
  ...videomeetBotOperations,
  ...vendorCallOperations({
    vendor: "videomeet",
    tag: "Videomeet Call Resource",
    stem: "Videomeet",
    operations: ["list", "get", "import", "link", "startBot"],
    example: { meetingId: "81234567890", title: "Weekly sync", joinUrl: "https://videomeet.example.com/j/81234567890" }
  }),
  ...botEventOperations,
  ...vendorCallOperations({
    vendor: "workchat",
    tag: "Workchat Call Resource",
    stem: "Workchat",
    operations: everyOperation,
    example: {
      meetingId: "MSo1N2Y5ZGFjYy03MWJmLTQ3NDMtYjQxMy01M2EdFGkdRWHJlQ",
      title: "Design review",
      joinUrl: "https://workchat.example.com/l/meetup-join/19%3ameeting_N2Q"
    }
  }),
  ...vendorCallOperations({
    vendor: "suite",
    tag: "Suite Call Resource",
    stem: "Suite",
    operations: everyOperation,
    example: { meetingId: "abc-mnop-xyz.1700000000", title: "Quarterly planning", joinUrl: "https://suite.example.com/abc-mnop-xyz" }
  }),
  ...hubBillingOperations,
  ...subscriptionOperations,
  ...hubPaymentWebhookOperations
]
