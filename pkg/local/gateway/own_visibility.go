package gateway

// SelfVisibility are the functions of template.yaml that set the visibility of the messages
// they report failed themselves (queue.Sender.RetrySoon and Hide: a retry within seconds, a
// push put off until the channel's limits allow it), as PollerOptions.OwnVisibility takes
// them. Every stack that runs the template's pollers (multisell serve, the tests' stack)
// passes this list, so that a failed poll, a put-off push or a failed adjustment comes back
// when its function said, as in AWS, not after the queue's visibility timeout.
var SelfVisibility = []string{"ConnectorPushFunction", "ConnectorPollFunction", "InventoryAdjustConsumerFunction"}
