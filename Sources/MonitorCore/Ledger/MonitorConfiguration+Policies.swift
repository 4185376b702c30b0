import Foundation
import MonitorEvaluation

extension MonitorConfiguration {
    /// The alert policy of the `alerts` section.
    public var alertPolicy: AlertPolicy {
        AlertPolicy(
            failureThreshold: alerts.failureThreshold, successThreshold: alerts.successThreshold,
            repeatAfter: alerts.repeatAfter?.seconds ?? 0, sendResolved: alerts.sendResolved)
    }

    /// What the ledger applies to each check: the alert policy, the webhooks and the maintenance windows. Alert
    /// states are kept even without webhooks, so `status` shows them.
    public var ledgerPolicy: LedgerPolicy {
        LedgerPolicy(
            alerts: alertPolicy, webhooks: webhooks, maintenance: maintenance,
            loneCDNFailureAfter: cdn.loneFailureAfter.seconds)
    }

    /// How deliveries are retried under this configuration.
    public var deliveryPolicy: DeliveryPolicy {
        DeliveryPolicy(giveUpAfter: alerts.giveUpAfter.seconds)
    }
}
