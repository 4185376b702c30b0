import Foundation
import MonitorCore

extension MonitorConfiguration {
    /// The alert policy of the `alerts` section.
    var alertPolicy: AlertPolicy {
        AlertPolicy(
            failureThreshold: alerts.failureThreshold, successThreshold: alerts.successThreshold,
            repeatAfter: alerts.repeatAfter?.seconds ?? 0, sendResolved: alerts.sendResolved)
    }

    /// What the ledger applies to each check: the alert policy, the webhooks and the maintenance windows. Alert
    /// states are kept even without webhooks, so `status` shows them.
    var ledgerPolicy: LedgerPolicy {
        LedgerPolicy(
            alerts: alertPolicy, webhooks: webhooks, maintenance: maintenance,
            loneCDNFailureAfter: cdn.loneFailureAfter.seconds)
    }
}

extension DaemonRuntime {
    /// How deliveries are retried under the configuration in force.
    var deliveryPolicy: DeliveryPolicy {
        DeliveryPolicy(giveUpAfter: configuration.alerts.giveUpAfter.seconds)
    }
}
