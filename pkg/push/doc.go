// Package push is the one flow by which multisell pushes a change to the
// channels and retries it until the channel takes it: a listing's
// quantity, a shipment's tracking, and what a marketplace connector pushes
// next. It holds the push state an item carries (State: status, version,
// failed attempts, sends), its transitions (a new version, a connector's
// Result, the Retry the retry queue brings back), what a stream record of
// the item asks (Due: send, schedule a retry), the retry schedule
// (Backoff) and the two queues (Queues: the outbox and the delayed retry
// queue).
//
// Everything but Queues is pure. Each domain keeps its items, their
// storage and its message formats: it reads its item's State, lets this
// package decide, and saves the item. A connector answers through the
// same Result, whichever domain the push came from. The statuses, the
// messages and the retry schedule are in docs/channel-sync.md.
package push
